import Foundation
import Testing
import WebImage

/// EXIF orientation from an extended WebP's EXIF chunk (lossy, lossless, animated, progressive): read, applied
/// on request like JPEG's, and `.up` when the chunk or VP8X's EXIF flag is missing or the payload malformed.
@Suite struct WebPOrientationTests {
    private let coder = WebPCoder()
    private static let patternSize = PixelSize(width: 4, height: 3)

    private func losslessPattern() throws -> Data {
        try coder.encode(Image(pixels: EXIFTestBytes.pattern(), hasAlpha: false), as: .webp,
                         options: ImageEncodeOptions(lossless: true))
    }

    private func withEXIF(_ payload: [UInt8], flag: Bool = true) throws -> Data {
        EXIFTestBytes.webp(try losslessPattern(), canvas: Self.patternSize, exif: payload, flag: flag)
    }

    @Test(arguments: 1...8, [false, true])
    func losslessOrientationIsReadAndApplied(value: Int, littleEndian: Bool) throws {
        let data = try withEXIF(EXIFTestBytes.tiff(value, littleEndian: littleEndian))
        try EXIFTestBytes.expectOrientation(data, decodedBy: coder, exifValue: value)
    }

    @Test(arguments: [1, 3, 6, 8])
    func lossyOrientationIsReadAndApplied(value: Int) throws {
        let photo = WebPTestImages.photo(width: 40, height: 24)
        let lossy = try coder.encode(Image(pixels: photo, hasAlpha: false), as: .webp, options: .init(quality: 0.8))
        let data = EXIFTestBytes.webp(lossy, canvas: photo.size, exif: EXIFTestBytes.tiff(value, littleEndian: false))
        let orientation = ImageOrientation(exifValue: value)
        let stored = try coder.decode(data, options: .init())
        #expect(stored.orientation == orientation)
        #expect(try stored.pixels == coder.decode(lossy, options: .init()).pixels)
        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        #expect(upright.pixelSize == (value >= 5 ? PixelSize(width: 24, height: 40) : PixelSize(width: 40, height: 24)))
        #expect(upright.pixels == stored.pixels.applying(orientation))
    }

    @Test func exifPrefixedPayloadIsRead() throws {
        let data = try withEXIF(EXIFTestBytes.exifPrefix + EXIFTestBytes.tiff(3))
        #expect(try coder.decode(data, options: .init()).orientation == .down)
    }

    @Test(arguments: EXIFTestBytes.malformedPayloads)
    func malformedPayloadReadsUpAndStillDecodes(payload: [UInt8]) throws {
        let image = try coder.decode(try withEXIF(payload), options: .init(applyOrientation: true))
        #expect(image.orientation == .up)
        #expect(image.pixels == EXIFTestBytes.pattern())
    }

    /// As in SDWebImage, an EXIF chunk counts only when VP8X announces it.
    @Test func chunkWithoutVP8XFlagIsIgnored() throws {
        #expect(try coder.decode(try withEXIF(EXIFTestBytes.tiff(6), flag: false), options: .init()).orientation == .up)
    }

    @Test func imageWithoutChunkStaysUp() throws {
        #expect(try coder.decode(try losslessPattern(), options: .init(applyOrientation: true)).orientation == .up)
    }

    /// Made with `cwebp -lossless` and `webpmux -set exif` (little-endian TIFF, orientation 8); pixels as dwebp.
    @Test func webpmuxFixtureReadsLeft() throws {
        try EXIFTestBytes.expectOrientation(try TestPaths.data(TestPaths.fixture("webp", "webpmux-exif8.webp")),
                                          decodedBy: coder, exifValue: 8)
    }

    @Test func animationFramesAreRotated() throws {
        let frames = [ImageFrame(pixels: EXIFTestBytes.pattern(), duration: 0.1),
                      ImageFrame(pixels: WebPTestImages.solid(width: 4, height: 3, [0, 255, 0, 255]), duration: 0.1)]
        let animation = try coder.encode(Image(frames: frames, hasAlpha: false), as: .webp,
                                         options: ImageEncodeOptions(lossless: true))
        let data = EXIFTestBytes.webp(animation, canvas: Self.patternSize, exif: EXIFTestBytes.tiff(6))
        let stored = try coder.decode(data, options: .init())
        #expect(stored.frameCount == 2 && stored.orientation == .right)
        #expect(stored.frames.map(\.pixels) == frames.map(\.pixels))
        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.frames.map(\.pixels) == frames.map { $0.pixels.applying(.right) })
        let first = try coder.decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1 && first.orientation == .right)
        // The frame-by-frame decoder delivers frames as stored and reports what they still need.
        #expect(try coder.makeAnimatedDecoder(data, options: .init()).orientation == .right)
    }

    /// EXIF follows the image data, so partial images read `.up` and the final image has the orientation.
    @Test func progressiveDecodeReportsOrientationOnceChunkArrived() throws {
        let photo = WebPTestImages.photo(width: 128, height: 96)
        let lossy = try coder.encode(Image(pixels: photo, hasAlpha: false), as: .webp, options: .init(quality: 0.9))
        let data = EXIFTestBytes.webp(lossy, canvas: photo.size, exif: EXIFTestBytes.tiff(6))
        let decoder = coder.makeProgressiveDecoder(options: .init(applyOrientation: true))
        var partials: [Image] = []
        for end in stride(from: 1024, to: data.count, by: 1024) {
            if let image = try decoder.decode(data.prefix(end), isFinished: false) { partials.append(image) }
        }
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.orientation == .up && $0.pixelSize == photo.size })
        #expect(final.orientation == .up && final.pixelSize == PixelSize(width: 96, height: 128))
        #expect(try final.pixels == coder.decode(data, options: .init()).pixels.applying(.right))
    }
}
