import Foundation
import Testing
import TestSupport
import WebImage

/// The one ISO-BMFF brand table: what `ImageFormat(sniffing:)` says is what the coders route by, on minimal `ftyp`
/// boxes and on a corpus file made generic.
@Suite struct BrandRoutingTests {
    /// An `ftyp` box: size, `ftyp`, the major brand, minor version 0, the compatible brands, then a `meta`
    /// box header so the bytes look like the start of a file.
    static func fileStart(major: String, compatible: [String]) -> Data {
        var bytes: [UInt8] = []
        let size = 16 + 4 * compatible.count
        bytes += [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { bytes += Array(brand.utf8) }
        bytes += [0, 0, 0, 8] + Array("meta".utf8)
        return Data(bytes)
    }

    /// One row: the brands and the format they sniff as (`.undefined`: no image or video format here).
    struct Row: Sendable, CustomTestStringConvertible {
        let major: String
        let compatible: [String]
        let format: ImageFormat
        var testDescription: String { "\(major) [\(compatible.joined(separator: ","))] → \(format)" }
    }

    /// The table. Where the libraries differ: imgproxy's magic bytes know only the major brand (`mif1` → HEIC,
    /// `avis` and `msf1` unknown) and libheif's MIME table too (`mif1` → image/heif, `avis` → image/avif-sequence),
    /// while libavif reads every file whose brands list `avif` or `avis`; so a generic major brand goes by its
    /// compatible brands, AV1 first (the `avif` brand requires an AV1 primary item), and HEVC's image and
    /// sequence brands (`heim`, `heis`, `hevm`, `hevs`) are HEIC as libheif and imgproxy say.
    static let table: [Row] = [
        Row(major: "avif", compatible: ["mif1", "avif", "miaf"], format: .avif),
        Row(major: "avis", compatible: ["avif", "avis", "msf1", "iso8"], format: .avif),
        // The major brand decides when it names a codec, whatever the compatible brands add.
        Row(major: "avif", compatible: ["mif1", "heic"], format: .avif),
        Row(major: "heic", compatible: ["mif1", "avif"], format: .heic),
        Row(major: "heic", compatible: ["mif1", "heic"], format: .heic),
        Row(major: "heix", compatible: ["mif1", "heix"], format: .heic),
        Row(major: "heim", compatible: ["mif1", "heim"], format: .heic),
        Row(major: "heis", compatible: ["msf1", "heis"], format: .heic),
        Row(major: "hevc", compatible: ["msf1", "hevc"], format: .heic),
        Row(major: "hevx", compatible: ["msf1", "hevx"], format: .heic),
        Row(major: "hevm", compatible: ["msf1", "hevm"], format: .heic),
        Row(major: "hevs", compatible: ["msf1", "hevs"], format: .heic),
        // Generic major brands: the compatible brands name the codec, AV1 first.
        Row(major: "mif1", compatible: ["mif1", "avif", "miaf"], format: .avif),
        Row(major: "mif1", compatible: ["mif1", "heic", "avif"], format: .avif),
        Row(major: "msf1", compatible: ["msf1", "avis"], format: .avif),
        Row(major: "mif1", compatible: ["mif1", "heic"], format: .heif),
        Row(major: "mif1", compatible: ["mif1", "miaf"], format: .heif),
        Row(major: "msf1", compatible: ["msf1", "hevc"], format: .heif),
        Row(major: "msf1", compatible: ["iso8", "msf1"], format: .heif),
        Row(major: "mif1", compatible: [], format: .heif),
        // Not the HEIF family, whatever the compatible brands say: MP4 video brands are video (no built-in coder
        // reads them; the video coder is added by apps); AVC-coded HEIF has no decoder here.
        Row(major: "isom", compatible: ["isom", "mp41"], format: .mp4),
        Row(major: "mp42", compatible: ["mif1", "avif"], format: .mp4),
        Row(major: "    ", compatible: ["mif1", "heic"], format: .undefined),
        Row(major: "avci", compatible: ["mif1", "avci"], format: .undefined),
    ]

    @Test(arguments: table)
    func sniffingAndRoutingAgree(row: Row) {
        let data = Self.fileStart(major: row.major, compatible: row.compatible)
        #expect(ImageFormat(sniffing: data) == row.format)
        #expect(AVIFCoder().canDecode(data) == (row.format == .avif))
        #expect(HEIFCoder().canDecode(data) == (row.format == .heic || row.format == .heif))
        let decoder = CodersManager.shared.decoder(for: data)
        switch row.format {
        case .avif: #expect(decoder is AVIFCoder)
        case .heic, .heif: #expect(decoder is HEIFCoder)
        default: #expect(decoder == nil)
        }
    }

    @Test func otherBytesAreNotClaimed() {
        for data in [Data("ftyp".utf8), Data(), Data([0, 0, 0, 0x18] + Array("moov".utf8) + [UInt8](repeating: 0, count: 16))] {
            #expect(!AVIFCoder().canDecode(data))
            #expect(!HEIFCoder().canDecode(data))
        }
    }

    @Test func brandsAreReadWithinTheAvailableBytes() {
        let full = Self.fileStart(major: "mif1", compatible: ["mif1", "miaf", "avif"])
        #expect(ImageFormat(sniffing: full.prefix(28)) == .avif && AVIFCoder().canDecode(full.prefix(28)))
        #expect(ImageFormat(sniffing: full.prefix(24)) == .heif && HEIFCoder().canDecode(full.prefix(24)))
        // A size field past the bytes reads what there is; one below the box's minimum reads them all.
        var hostile = Array(full)
        hostile[0...3] = [0, 0xFF, 0xFF, 0xF0]
        #expect(ImageFormat(sniffing: Data(hostile)) == .avif)
        hostile[0...3] = [0, 0, 0, 4]
        #expect(ImageFormat(sniffing: Data(hostile)) == .avif)
    }

    /// A real AVIF made generic (`mif1` major, `avif` among its compatible brands) sniffs, routes, decodes and
    /// reports its header as AVIF: the format a cache stores it under is the one sniffing reads back.
    @Test func aGenericBrandAVIFIsAVIFThroughout() throws {
        let branded = try TestCorpus.data("avif/Chimera_8bit_cropped_480x256.avif")
        let generic = try TestCorpus.data("avif/Chimera_8bit_cropped_480x256.avif", majorBrand: "mif1")
        #expect(generic != branded)
        #expect(ImageFormat(sniffing: generic) == .avif)
        #expect(CodersManager.shared.decoder(for: generic) is AVIFCoder)
        let header = try CodersManager.shared.header(for: generic)
        #expect(header.format == .avif && header.pixelSize == PixelSize(width: 480, height: 256))
        #expect(header.format == ImageFormat(sniffing: generic))
        let image = try CodersManager.shared.decode(generic, options: ImageDecodeOptions())
        let reference = try CodersManager.shared.decode(branded, options: ImageDecodeOptions())
        #expect(image.format == .avif && image.pixels == reference.pixels)
    }
}
