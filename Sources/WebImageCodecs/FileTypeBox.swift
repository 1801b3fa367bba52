import Foundation
import WebImageCore

/// The `ftyp` box that opens an ISO-BMFF file (HEIF, HEIC, AVIF): its major brand and compatible brands, read
/// to route a file to the coder whose library decodes its codec.
///
/// A HEIF file's major brand is often the generic `mif1` (image) or `msf1` (sequence); the compatible brands
/// then say which codec the items use (`avif`/`avis` for AV1, `heic`/`heix`/`heim`/`heis`/`hevc`/`hevx` for
/// HEVC). Only the first box is read, bounds-checked, so a hostile size field costs nothing.
struct FileTypeBox: Equatable {
    let majorBrand: String
    let compatibleBrands: [String]

    /// The codec family a HEIF file's brands announce.
    enum Codec: Equatable {
        /// AV1: decoded by libavif (``AVIFCoder``).
        case av1
        /// HEVC, or a generic HEIF file whose brands do not name AV1: decoded by libheif (``HEIFCoder``), which
        /// refuses codecs it has no decoder for.
        case heif
    }

    private static let av1Brands: Set<String> = ["avif", "avis"]
    private static let hevcBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]
    private static let genericBrands: Set<String> = ["mif1", "msf1"]

    /// Parses the first box of `data`; nil when it is not a complete `ftyp` box.
    init?(_ data: Data) {
        guard let box = data.withUnsafeBytes({ Self.parse($0) }) else { return nil }
        self = box
    }

    private init(majorBrand: String, compatibleBrands: [String]) {
        self.majorBrand = majorBrand
        self.compatibleBrands = compatibleBrands
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> FileTypeBox? {
        guard bytes.count >= 16 else { return nil }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard fourCC(4) == "ftyp" else { return nil }
        // A 32-bit size; 1 (a 64-bit size follows) and 0 (to the end of the file) never occur for `ftyp` in
        // practice, so both read as the available bytes.
        let declared = u32(0)
        let end = declared >= 16 ? min(declared, bytes.count) : bytes.count
        let brands = stride(from: 16, to: end - 3, by: 4).map(fourCC)
        return FileTypeBox(majorBrand: fourCC(8), compatibleBrands: brands)
    }

    /// The codec family the brands announce, or nil when this is no HEIF/AVIF file.
    ///
    /// The major brand decides when it names a codec (`avif`/`avis` → AV1, `heic`… → HEVC); after a generic
    /// major brand (`mif1`, `msf1`) the compatible brands do: AV1 when they list `avif` or `avis`, else HEVC.
    /// Any other major brand is no HEIF file, whatever the compatible brands say (libheif's own file-type
    /// check, which `heif-convert` applies, refuses them too).
    var codec: Codec? {
        if Self.av1Brands.contains(majorBrand) { return .av1 }
        if Self.hevcBrands.contains(majorBrand) { return .heif }
        guard Self.genericBrands.contains(majorBrand) else { return nil }
        return Set(compatibleBrands).isDisjoint(with: Self.av1Brands) ? .heif : .av1
    }
}
