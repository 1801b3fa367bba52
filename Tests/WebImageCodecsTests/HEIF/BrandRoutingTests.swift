import Foundation
import Testing
import WebImage

/// Sniffing (SDWebImage's major-brand table) and the coders' brand checks, on minimal `ftyp` boxes.
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

    @Test(arguments: [("heic", ImageFormat.heic), ("heix", .heic), ("hevc", .heic), ("hevx", .heic),
                      ("mif1", .heif), ("msf1", .heif), ("avif", .avif), ("avis", .avif)])
    func majorBrandSniffsAsSDWebImageDoes(brand: String, format: ImageFormat) {
        #expect(ImageFormat(sniffing: Self.fileStart(major: brand, compatible: [brand])) == format)
    }

    @Test(arguments: ["heic", "heix", "hevc", "hevx"])
    func hevcMajorBrandsGoToTheHEIFCoder(brand: String) {
        let data = Self.fileStart(major: brand, compatible: ["mif1", brand])
        #expect(HEIFCoder().canDecode(data))
        #expect(!AVIFCoder().canDecode(data))
        #expect(CodersManager.shared.decoder(for: data) is HEIFCoder)
    }

    @Test(arguments: ["avif", "avis"])
    func av1MajorBrandsGoToTheAVIFCoder(brand: String) {
        let data = Self.fileStart(major: brand, compatible: ["mif1", "miaf", brand])
        #expect(AVIFCoder().canDecode(data))
        #expect(!HEIFCoder().canDecode(data))
        #expect(CodersManager.shared.decoder(for: data) is AVIFCoder)
    }

    /// A generic major brand: the compatible brands name the codec.
    @Test(arguments: [("mif1", ["mif1", "avif"], true), ("msf1", ["msf1", "avis"], true),
                      ("mif1", ["mif1", "heic"], false), ("msf1", ["msf1", "hevc"], false),
                      ("mif1", ["mif1", "miaf"], false), ("msf1", ["iso8", "msf1"], false)])
    func genericMajorBrandsAreRoutedByCompatibleBrands(major: String, compatible: [String], isAV1: Bool) {
        let data = Self.fileStart(major: major, compatible: compatible)
        #expect(ImageFormat(sniffing: data) == .heif)
        #expect(AVIFCoder().canDecode(data) == isAV1)
        #expect(HEIFCoder().canDecode(data) == !isAV1)
        #expect((CodersManager.shared.decoder(for: data) is AVIFCoder) == isAV1)
    }

    @Test func otherFilesAreNotClaimed() {
        // A major brand outside the HEIF family is not claimed even when compatible brands name HEIF codecs.
        for data in [Self.fileStart(major: "isom", compatible: ["isom", "mp41"]),
                     Self.fileStart(major: "    ", compatible: ["mif1", "heic"]),
                     Self.fileStart(major: "mp42", compatible: ["mif1", "avif"]), Data("ftyp".utf8), Data(),
                     Data([0, 0, 0, 0x18] + Array("moov".utf8) + [UInt8](repeating: 0, count: 16))] {
            #expect(!AVIFCoder().canDecode(data))
            #expect(!HEIFCoder().canDecode(data))
        }
    }

    @Test func brandsAreReadWithinTheAvailableBytes() {
        let full = Self.fileStart(major: "mif1", compatible: ["mif1", "miaf", "avif"])
        #expect(AVIFCoder().canDecode(full.prefix(28)))
        #expect(HEIFCoder().canDecode(full.prefix(24)))
    }
}
