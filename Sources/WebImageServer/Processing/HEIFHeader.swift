import WebImage

/// The size of a HEIF, HEIC or AVIF file read from its boxes alone: the primary item's `ispe`, then
/// its `clap` and `irot` in the order `ipma` lists them, since the decoders (libheif, and libavif through
/// WebImageCodecs' `AVIFGeometry`) apply those and deliver the result upright. An `avis` sequence without a
/// `meta` box is read from its first track's sample entry.
///
/// The primary item is `pitm`'s, or the first top-level image when `pitm` names something else (a thumbnail,
/// a grid tile), as the HEIF decoder picks it. A missing or zero `ispe`, a `clap` that is not a positive
/// rectangle inside the image, and any malformed box read as nil.
struct HEIFHeader {
    /// The decoded image's size: after the crop and rotation.
    var size: PixelSize
    /// The coded size (`ispe`), which the decoder allocates.
    var codedSize: PixelSize

    private static let imageItemTypes: Set<String> = ["hvc1", "av01", "grid", "iden", "iovl", "jpeg", "avc1", "unci",
                                                      "j2k1"]

    /// The header of a file whose brands say `format` (AVIF, HEIC or HEIF).
    init?(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) {
        let file = ISOBMFFBoxes(bytes: bytes)
        let top = file.boxes(in: 0..<bytes.count, tolerant: true) ?? []
        guard top.first?.type == "ftyp" else { return nil }
        if let meta = top.first(where: { $0.type == "meta" }) {
            guard let sizes = Self.primarySizes(file, meta: meta) else { return nil }
            (size, codedSize) = sizes
        } else if format == .avif, let moov = top.first(where: { $0.type == "moov" }),
                  let trackSize = Self.trackSize(file, moov: moov) {
            (size, codedSize) = (trackSize, trackSize)
        } else {
            return nil
        }
    }

    /// The primary item's displayed and coded sizes.
    private static func primarySizes(_ file: ISOBMFFBoxes,
                                     meta: ISOBMFFBoxes.Box) -> (size: PixelSize, coded: PixelSize)? {
        guard let children = file.children(of: meta, skipping: 4),  // a full box
              let pitm = children.first(where: { $0.type == "pitm" }),
              let iprp = children.first(where: { $0.type == "iprp" }),
              let version = file.u8(pitm.payload.lowerBound, end: pitm.payload.upperBound),
              let named = file.u16or32(pitm.payload.lowerBound + 4, end: pitm.payload.upperBound, wide: version != 0),
              let primary = primaryItem(file, named: named, in: children),
              let properties = file.first("ipco", in: iprp.payload).flatMap({ file.children(of: $0) }),
              let ipmas = file.children(of: iprp)?.filter({ $0.type == "ipma" }) else { return nil }
        var indices: [Int]?
        for ipma in ipmas where indices == nil {
            guard let found = associations(file, ipma: ipma, item: primary) else { return nil }
            indices = found.isEmpty ? nil : found
        }
        let associated = (indices ?? []).compactMap { properties.indices.contains($0 - 1) ? properties[$0 - 1] : nil }
        guard let ispe = associated.first(where: { $0.type == "ispe" }),
              let width = file.u32(ispe.payload.lowerBound + 4, end: ispe.payload.upperBound),
              let height = file.u32(ispe.payload.lowerBound + 8, end: ispe.payload.upperBound),
              width > 0, height > 0 else { return nil }
        let coded = PixelSize(width: width, height: height)
        var size = coded
        for property in associated {
            let end = property.payload.upperBound
            switch property.type {
            case "clap":
                guard let crop = cleanAperture(file, property, within: size) else { return nil }
                size = crop
            case "irot":
                guard let angle = file.u8(property.payload.lowerBound, end: end) else { return nil }
                if angle & 1 == 1 { size = PixelSize(width: size.height, height: size.width) }
            default: break
            }
        }
        return (size, coded)
    }

    /// The `pitm` item when it is a top-level image, else the first top-level image `iinf` lists: an image
    /// item that is not hidden, not a thumbnail or auxiliary image (`thmb`, `auxl`) and no input of a derived
    /// image (`dimg`).
    private static func primaryItem(_ file: ISOBMFFBoxes, named: Int, in meta: [ISOBMFFBoxes.Box]) -> Int? {
        guard let iinf = meta.first(where: { $0.type == "iinf" }), let items = itemInfos(file, iinf: iinf) else {
            return nil
        }
        var dependent = Set<Int>()
        if let iref = meta.first(where: { $0.type == "iref" }) {
            guard let references = references(file, iref: iref) else { return nil }
            for (type, from, to) in references {
                if type == "thmb" || type == "auxl" { dependent.insert(from) }
                if type == "dimg" { dependent.formUnion(to) }
            }
        }
        let topLevel = items.filter { imageItemTypes.contains($0.type) && !$0.hidden && !dependent.contains($0.id) }
        return topLevel.contains { $0.id == named } ? named : topLevel.first?.id
    }

    /// The `infe` entries (version 2 and later, the only ones with an item type) of `iinf`.
    private static func itemInfos(_ file: ISOBMFFBoxes,
                                  iinf: ISOBMFFBoxes.Box) -> [(id: Int, type: String, hidden: Bool)]? {
        let start = iinf.payload.lowerBound
        guard let version = file.u8(start, end: iinf.payload.upperBound),
              let entries = file.children(of: iinf, skipping: version == 0 ? 6 : 8) else { return nil }
        var items: [(id: Int, type: String, hidden: Bool)] = []
        for infe in entries where infe.type == "infe" {
            let at = infe.payload.lowerBound, end = infe.payload.upperBound
            guard let version = file.u8(at, end: end), let flags = file.u8(at + 3, end: end) else { return nil }
            guard version >= 2 else { continue }
            let wide = version >= 3
            guard let id = file.u16or32(at + 4, end: end, wide: wide),
                  let type = file.fourCC(at + (wide ? 10 : 8), end: end) else { return nil }
            items.append((id, type, flags & 1 == 1))
        }
        return items
    }

    /// Every reference in `iref`: its type, the item it is from and the items it points to.
    private static func references(_ file: ISOBMFFBoxes,
                                   iref: ISOBMFFBoxes.Box) -> [(type: String, from: Int, to: [Int])]? {
        guard let version = file.u8(iref.payload.lowerBound, end: iref.payload.upperBound),
              let boxes = file.children(of: iref, skipping: 4) else { return nil }
        let wide = version != 0, idSize = wide ? 4 : 2
        var result: [(type: String, from: Int, to: [Int])] = []
        for box in boxes {
            let at = box.payload.lowerBound, end = box.payload.upperBound
            guard let from = file.u16or32(at, end: end, wide: wide),
                  let count = file.u16(at + idSize, end: end) else { return nil }
            var to: [Int] = []
            for index in 0..<count {
                guard let id = file.u16or32(at + idSize + 2 + index * idSize, end: end, wide: wide) else { return nil }
                to.append(id)
            }
            result.append((box.type, from, to))
        }
        return result
    }

    /// The 1-based property indices `ipma` associates with `item`: empty when it lists none, nil when malformed.
    private static func associations(_ file: ISOBMFFBoxes, ipma: ISOBMFFBoxes.Box, item: Int) -> [Int]? {
        let end = ipma.payload.upperBound
        var at = ipma.payload.lowerBound
        guard let version = file.u8(at, end: end), let flags = file.u8(at + 3, end: end),
              let count = file.u32(at + 4, end: end) else { return nil }
        let wideID = version >= 1, wideIndex = flags & 1 == 1
        at += 8
        for _ in 0..<count {
            guard let id = file.u16or32(at, end: end, wide: wideID) else { return nil }
            at += wideID ? 4 : 2
            guard let associationCount = file.u8(at, end: end) else { return nil }
            at += 1
            var indices: [Int] = []
            for _ in 0..<associationCount {
                guard let value = wideIndex ? file.u16(at, end: end) : file.u8(at, end: end) else { return nil }
                at += wideIndex ? 2 : 1
                indices.append(value & (wideIndex ? 0x7FFF : 0x7F))
            }
            if id == item { return indices }
        }
        return []
    }

    /// The size of the `clap` rectangle (rounded to whole pixels, as libheif does), inside `size`.
    private static func cleanAperture(_ file: ISOBMFFBoxes, _ clap: ISOBMFFBoxes.Box,
                                      within size: PixelSize) -> PixelSize? {
        func field(_ index: Int) -> Int? {
            file.u32(clap.payload.lowerBound + 4 * index, end: clap.payload.upperBound)
                .map { Int(Int32(truncatingIfNeeded: $0)) }
        }
        guard let widthN = field(0), let widthD = field(1), let heightN = field(2), let heightD = field(3),
              widthN > 0, widthD > 0, heightN > 0, heightD > 0 else { return nil }
        let width = (widthN + widthD / 2) / widthD, height = (heightN + heightD / 2) / heightD
        guard width > 0, height > 0, width <= size.width, height <= size.height else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// The first track's visual sample entry size (`moov/trak/mdia/minf/stbl/stsd`).
    private static func trackSize(_ file: ISOBMFFBoxes, moov: ISOBMFFBoxes.Box) -> PixelSize? {
        guard let trak = file.first("trak", in: moov.payload),
              let stbl = ["mdia", "minf", "stbl"].reduce(Optional(trak), { box, type in
                  box.flatMap { file.first(type, in: $0.payload) }
              }),
              let stsd = file.first("stsd", in: stbl.payload),
              let entry = file.children(of: stsd, skipping: 8)?.first,
              let width = file.u16(entry.payload.lowerBound + 24, end: entry.payload.upperBound),
              let height = file.u16(entry.payload.lowerBound + 26, end: entry.payload.upperBound),
              width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }
}
