import Foundation
import TestSupport
import Testing
import WebImage

/// The pixel limit, hostile sizes, truncation, buffer reuse and progressive loading for HEIF/HEIC.
@Suite struct HEIFDecodeOptionsTests {
    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("heif/\(name)")
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let data = try corpus("arrow.heic")
        #expect(badImageDataDescription { _ = try HEIFCoder().decode(data, options: .init(maxPixelCount: 10_000_000)) }
                == BadImageDataReason.tooManyPixels(width: 3024, height: 4032, limit: 10_000_000).description)
    }

    /// 12000 × 12000 (144 MP, under libheif's 32768-a-side limit): refused by the 100 MP limit from the boxes.
    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("colors-no-alpha.heic"), width: 12_000, height: 12_000)
        #expect(badImageDataDescription { _ = try HEIFCoder().decode(data, options: .init()) }
                == BadImageDataReason.tooManyPixels(width: 12_000, height: 12_000, limit: 100_000_000).description)
    }

    /// Past libheif's per-side limit: refused while libheif parses.
    @Test(arguments: [(UInt32(100_000), UInt32(100_000)), (40_000, 8)])
    func sizesLibheifRefusesAreBadImageData(width: UInt32, height: UInt32) throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("arrow.heic"), width: width, height: height)
        let outcome = badImageDataDescription { _ = try HEIFCoder().decode(data, options: .init()) }
        #expect(outcome?.hasPrefix("corrupt image data: HEIF: Memory allocation error: Security limit exceeded") == true,
                "\(outcome ?? "decoded")")
    }

    /// A zero-sized image (a grid and its tiles declaring 0 × 0) is refused before decoding.
    @Test func zeroSizedGridIsRefused() throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("arrow.heic"), width: 0, height: 0)
        #expect(badImageDataDescription { _ = try HEIFCoder().decode(data, options: .init()) }
                == BadImageDataReason.corrupt("image dimensions 0x0 are not positive").description)
    }

    @Test(arguments: ["colors-with-alpha.heic", "arrow.heic", "RGBA_12__29x100.heif"])
    func truncatedFilesGiveBadImageData(file: String) throws {
        let data = try corpus(file)
        for length in [1, 12, 20, 32, 100, data.count / 3, data.count / 2, data.count - 1] {
            let outcome = badImageDataDescription { _ = try CodersManager.shared.decode(data.prefix(length), options: .init()) }
            #expect(outcome != nil, "\(file) cut to \(length) bytes decoded")
            #expect(outcome.map { !$0.hasPrefix("not") && !$0.hasPrefix("untyped") } ?? true, "\(file): \(outcome ?? "")")
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let data = try corpus("colors-with-alpha.heic")
        var state: UInt32 = 11
        for _ in 0..<60 {
            var bytes = [UInt8](data)
            for _ in 0..<8 {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[Int(state >> 8) % bytes.count] ^= 0xFF
            }
            #expect(endsInResultOrTypedError { _ = try HEIFCoder().decode(Data(bytes), options: .init()) })
        }
    }

    @Test func reusedBufferGivesTheSameImage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        for name in ["colors-with-alpha.heic", "RGB_10__29x100.heif", "zPug_3.heic"] {
            let data = try corpus(name)
            let reused = try HEIFCoder().decode(data, reusing: &buffer, options: .init())
            #expect(reused.pixels == (try HEIFCoder().decode(data, options: .init())).pixels)
        }
    }

    /// The progressive decoder shows nothing while bytes arrive and gives the one-shot image at the end.
    @Test func progressiveDecoderWaitsForTheWholeFile() throws {
        let data = try corpus("zPug_3.heic")
        let decoder = try #require(CodersManager.shared.progressiveDecoder(for: data.prefix(40), options: .init()))
        for length in stride(from: 40, to: data.count, by: data.count / 6) {
            #expect(try decoder.decode(data.prefix(length), isFinished: false) == nil)
        }
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(!final.isIncremental)
        #expect(final.pixels == (try HEIFCoder().decode(data, options: .init())).pixels)
    }

    /// An `msf1` file (an image sequence brand) is decoded by its primary image, as a still.
    @Test func sequenceBrandDecodesThePrimaryImageAsAStill() throws {
        var bytes = [UInt8](try corpus("colors-no-alpha.heic"))
        // The major brand `heic` becomes `msf1`: libheif 1.15 reads the items, not tracks.
        bytes.replaceSubrange(8..<12, with: Array("msf1".utf8))
        let data = Data(bytes)
        #expect(ImageFormat(sniffing: data) == .heif)
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.frameCount == 1)
        #expect(image.format == .heif)
        #expect(image.pixels == (try HEIFCoder().decode(try corpus("colors-no-alpha.heic"), options: .init())).pixels)
    }
}
