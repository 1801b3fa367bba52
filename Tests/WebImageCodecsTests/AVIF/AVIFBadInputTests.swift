import Foundation
import TestSupport
import Testing
import WebImage

/// Truncated, corrupt and hostile AVIF files end in `badImageData` (1001), before any pixel memory is
/// allocated where the container already tells.
@Suite struct AVIFBadInputTests {
    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("avif/\(name)")
    }

    @Test(arguments: ["still_picture.avif", "bbb_alpha_inverted.avif", "colors-animated-8bpc.avif",
                      "Summer_in_Tomsk_720p_5x4_grid.avif"])
    func truncatedFilesGiveBadImageData(file: String) throws {
        let data = try corpus(file)
        // Not the last byte: these files end with an Exif item, which the decoder does not read.
        for length in [1, 12, 20, 32, 100, data.count / 3, data.count / 2, data.count * 9 / 10] {
            let outcome = badImageDataDescription { _ = try AVIFCoder().decode(data.prefix(length), options: .init()) }
            #expect(outcome != nil, "\(file) cut to \(length) bytes decoded")
            #expect(outcome.map { !$0.hasPrefix("not") && !$0.hasPrefix("untyped") } ?? true, "\(file): \(outcome ?? "")")
        }
    }

    @Test func emptyDataIsEmpty() {
        #expect(badImageDataDescription { _ = try AVIFCoder().decode(Data(), options: .init()) } == BadImageDataReason.empty.description)
    }

    /// A 12000 × 12000 `ispe` (144 MP, within libavif's own limits) over a 1280 × 720 stream: refused from the
    /// container by the 100 MP limit.
    @Test func hugeDeclaredSizeIsRefusedFromTheContainer() throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("still_picture.avif"), width: 12_000, height: 12_000)
        #expect(badImageDataDescription { _ = try AVIFCoder().decode(data, options: .init()) }
                == BadImageDataReason.tooManyPixels(width: 12_000, height: 12_000, limit: 100_000_000).description)
        #expect(badImageDataDescription { _ = try AnimatedImage(data: data) } != nil)
    }

    /// Sizes past libavif's own limits (16384² pixels, 32768 a side) are refused while it parses.
    @Test(arguments: [(UInt32(60_000), UInt32(60_000)), (40_000, 10), (0, 0)])
    func sizesLibavifRefusesAreCorruptData(width: UInt32, height: UInt32) throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("Summer_in_Tomsk_720p_5x4_grid.avif"), width: width, height: height)
        let outcome = badImageDataDescription { _ = try AVIFCoder().decode(data, options: .init()) }
        #expect(outcome?.hasPrefix("corrupt image data: AVIF: BMFF parsing failed") == true, "\(outcome ?? "decoded")")
    }

    /// A container that declares less than its AV1 stream holds (640 × 360 around 1280 × 720): libavif shows
    /// the declared part, so the raster never outgrows what the container announced.
    @Test func streamLargerThanTheContainerShowsTheDeclaredSize() throws {
        let data = ISOBMFFMutation.declaringSize(try corpus("still_picture.avif"), width: 640, height: 360)
        #expect(try AVIFCoder().decode(data, options: .init()).pixelSize == PixelSize(width: 640, height: 360))
    }

    @Test func flippedBytesNeverCrash() throws {
        let data = try corpus("abc_color_irot_alpha_irot.avif")
        var state: UInt32 = 7
        for _ in 0..<60 {
            var bytes = [UInt8](data)
            for _ in 0..<8 {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[Int(state >> 8) % min(bytes.count, 600)] ^= 0xFF
            }
            #expect(endsInResultOrTypedError { _ = try AVIFCoder().decode(Data(bytes), options: .init()) })
        }
    }
}
