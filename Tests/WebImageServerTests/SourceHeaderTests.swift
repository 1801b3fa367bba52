import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Reading an AVIF, HEIC/HEIF or JPEG XL source's header as the service does (`CodersManager.header(for:)`):
/// the corpora's sizes, the brands, JPEG XL's container, and hostile or cut headers (an error, never a crash).
@Suite struct SourceHeaderTests {
    static func header(_ data: Data) throws -> ImageHeader {
        try CodersManager.shared.header(for: data)
    }

    /// One `reference.tsv` line: a file, and its displayed size when the reference decoder read it.
    struct Reference: CustomTestStringConvertible, Sendable {
        var path: String
        var size: PixelSize?
        /// A JPEG XL orientation that swaps the sides (5–8): the header gives the stored size.
        var turned: Bool
        var testDescription: String { path }
    }

    static func references(_ folder: String) -> [Reference] {
        let table = (try? String(contentsOf: TestCorpus.url("\(folder)/reference.tsv"), encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let size = Int(fields[2]).flatMap { width in Int(fields[3]).map { PixelSize(width: width, height: $0) } }
            let turned = ["5", "6", "7", "8"].contains { fields[7] == "orientation:" + $0 }
            return Reference(path: "\(folder)/\(fields[0])", size: fields[11].hasPrefix("ok") ? size : nil,
                             turned: turned)
        }
    }

    static let readable = (references("avif") + references("heif") + references("jxl")).filter { $0.size != nil }

    /// Every file a reference decoder read: the header gives its displayed size (AVIF and HEIF after `clap`
    /// and `irot`; JPEG XL as stored, its orientation still to apply).
    @Test(arguments: readable)
    func corpusSizes(reference: Reference) throws {
        let displayed = try #require(reference.size)
        let header = try Self.header(TestCorpus.data(reference.path))
        let expected = reference.turned ? PixelSize(width: displayed.height, height: displayed.width) : displayed
        #expect(header.pixelSize == expected)
        #expect(header.codedSize.pixelCount >= header.pixelSize.pixelCount)
    }

    @Test func theCorpusIsThere() {
        #expect(Self.references("avif").count == 31 && Self.references("heif").count == 26
                && Self.references("jxl").count == 23)
        #expect(Self.readable.count == 30 + 14 + 22)
    }

    @Test func codedSizesAndFormats() throws {
        let rotated = try Self.header(TestCorpus.data("heif/arrow.heic"))
        #expect(rotated.format == .heic)
        #expect(rotated.pixelSize == PixelSize(width: 3024, height: 4032))
        #expect(rotated.codedSize == PixelSize(width: 4032, height: 3024))
        let cropped = try Self.header(TestCorpus.data("avif/Chimera_10bit_cropped_to_1920x1008.avif"))
        #expect(cropped.pixelSize == PixelSize(width: 1920, height: 1008))
        #expect(cropped.codedSize == PixelSize(width: 1920, height: 1080))
        // The third of three top-level images is the primary.
        #expect(try Self.header(TestCorpus.data("heif/zPug_3.heic")).pixelSize == PixelSize(width: 64, height: 64))
        let sequence = try Self.header(TestCorpus.data("avif/colors-animated-8bpc.avif"))
        #expect(sequence.format == .avif && sequence.pixelSize == PixelSize(width: 150, height: 150))
        let heic = try Self.header(Fixtures.still(.heic, 40, 30))
        #expect(heic.format == .heic && heic.pixelSize == PixelSize(width: 40, height: 30))
        let jxl = try Self.header(Fixtures.still(.jxl, 41, 29))
        #expect(jxl.format == .jxl && jxl.pixelSize == PixelSize(width: 41, height: 29))
    }

    /// A generic `mif1` file whose compatible brands name AV1 is decoded by the AVIF coder: it is an AVIF, and
    /// sniffs as one (one brand table for both).
    @Test func aGenericBrandWithAV1IsAVIF() throws {
        var avif = try Fixtures.still(.avif, 40, 30)
        let brand = try #require(avif.range(of: Data("ftypavif".utf8)))
        avif.replaceSubrange(brand.lowerBound + 4..<brand.upperBound, with: Data("mif1".utf8))
        #expect(ImageFormat(sniffing: avif) == .avif)
        let header = try Self.header(avif)
        #expect(header.format == .avif && header.pixelSize == PixelSize(width: 40, height: 30))
    }

    /// A bare codestream wrapped in the container: one `jxlc` box, or `jxlp` parts split inside the
    /// `SizeHeader` (the last part's index has its high bit set).
    @Test func jpegXLContainer() throws {
        let codestream = try Fixtures.still(.jxl, 300, 7)
        #expect(codestream.starts(with: [0xFF, 0x0A]))
        let whole = Self.jxlContainer([Self.box("jxlc", codestream)])
        #expect(try Self.header(whole).pixelSize == PixelSize(width: 300, height: 7))
        let parts = Self.jxlContainer([Self.box("jxlp", Data([0, 0, 0, 0]) + codestream.prefix(3)),
                                       Self.box("jxlp", Data([0x80, 0, 0, 1]) + codestream.dropFirst(3))])
        let header = try Self.header(parts)
        #expect(header.format == .jxl && header.pixelSize == PixelSize(width: 300, height: 7))
        #expect(try CodersManager.shared.decode(parts, options: ImageDecodeOptions()).pixelSize == header.pixelSize)
    }

    /// A `SizeHeader` declaring 2³⁰ × 2³⁰ (the largest) with nothing valid after it, a zero `ispe`, or an
    /// `ipco` box whose size is 0 (to its parent's end), 1 (a 64-bit size that is garbage), below its header, or
    /// past its parent: a typed error from the header read, before anything image-sized is allocated.
    @Test func hostileDeclaredSizes() throws {
        #expect(throws: WebImageError.self) { try Self.header(Self.jxlCodestream(height: 1 << 30, ratio: 1)) }
        let heic = try Fixtures.still(.heic, 40, 30)
        #expect(throws: WebImageError.self) { try Self.header(Self.patchingISPE(heic, width: 0, height: 0)) }
        #expect(throws: WebImageError.self) {
            try Self.header(Self.patchingISPE(heic, width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        }
    }

    @Test(arguments: [UInt32(0), 1, 7, 0xFFFF_FFFF])
    func hostileBoxSizes(size: UInt32) throws {
        var heic = try Fixtures.still(.heic, 40, 30)
        let ipco = try #require(heic.range(of: Data("ipco".utf8)))
        heic.replaceSubrange(ipco.lowerBound - 4..<ipco.lowerBound, with: Self.be32(size))
        #expect(throws: WebImageError.self) { try Self.header(heic) }
    }

    /// Every cut of the first bytes, and thousands of random corruptions, of each new format: a header or a
    /// typed error, never a crash.
    @Test(arguments: ["heif/arrow.heic", "avif/kimono.mirror-vertical.rotate270.crop.avif",
                      "avif/colors-animated-8bpc.avif", "jxl/sunset_logo.jxl", "jxl/animation_spline.jxl"])
    func cutAndCorruptedHeaders(path: String) throws {
        let head = try TestCorpus.data(path).prefix(2048)
        var generator = SplitMix64(seed: UInt64(head.count))
        var variants = (0...head.count).map { Data(head.prefix($0)) }
        for _ in 0..<3000 {
            var bytes = [UInt8](head)
            for _ in 0...(generator.next() % 6) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            variants.append(Data(bytes))
        }
        for variant in variants {
            do {
                _ = try Self.header(variant)
            } catch {
                guard error is WebImageError else { Issue.record("\(error)"); return }
            }
        }
        #expect(variants.count == head.count + 3001)
    }

    // MARK: - Building bytes

    static func be32(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    static func box(_ type: String, _ payload: Data) -> Data {
        be32(UInt32(8 + payload.count)) + Data(type.utf8) + payload
    }

    /// The container's signature box and `ftyp`, then `boxes`.
    static func jxlContainer(_ boxes: [Data]) -> Data {
        box("JXL ", Data([0x0D, 0x0A, 0x87, 0x0A])) + box("ftyp", Data("jxl ".utf8) + be32(0) + Data("jxl ".utf8))
            + boxes.reduce(Data(), +)
    }

    /// A codestream signature and a `SizeHeader` of `height` (30-bit form) and width by `ratio` (1…7), then
    /// junk where the rest of the headers would be.
    static func jxlCodestream(height: Int, ratio: Int) -> Data {
        var bits: [Int] = [0, 1, 1]  // not small; the 30-bit height selector
        bits += (0..<30).map { (height - 1) >> $0 & 1 }
        bits += (0..<3).map { ratio >> $0 & 1 }
        var bytes: [UInt8] = [0xFF, 0x0A]
        for (index, bit) in bits.enumerated() {
            if index % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(bit << (index % 8))
        }
        return Data(bytes + [UInt8](repeating: 0x55, count: 32))
    }

    /// `file` with every `ispe` (libheif's HEIC has one for the coded tile and one for the primary item that
    /// shows it uncropped) declaring `width × height`.
    static func patchingISPE(_ file: Data, width: UInt32, height: UInt32) throws -> Data {
        var data = file
        var found = data.range(of: Data("ispe".utf8))
        try #require(found != nil)
        while let ispe = found {
            data.replaceSubrange(ispe.upperBound + 4..<ispe.upperBound + 12, with: be32(width) + be32(height))
            found = data.range(of: Data("ispe".utf8), in: ispe.upperBound..<data.endIndex)
        }
        return data
    }
}
