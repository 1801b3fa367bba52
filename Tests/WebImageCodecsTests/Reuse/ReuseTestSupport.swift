import Foundation
import Testing
import WebImage

/// Checks shared by the reuse tests: `decode(_:reusing:options:)` must give exactly what
/// `decode(_:options:)` gives, and must write into the caller's storage.
enum ReuseTestSupport {
    /// Where `pixels`' bytes live.
    static func address(_ pixels: PixelBuffer) -> Int {
        pixels.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }

    /// Decodes two same-size images in turn into `buffer` (each matching the normal decode) and expects the
    /// second to land in the first one's storage; returns that storage's address.
    @discardableResult
    static func expectSharedStorage(_ coder: any ImageDecoding, _ first: Data, _ second: Data,
                                    buffer: inout PixelBuffer, options: ImageDecodeOptions = .init(),
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let address = try expectReuseMatches(coder, first, buffer: &buffer, options: options, sourceLocation: sourceLocation)
        let again = try expectReuseMatches(coder, second, buffer: &buffer, options: options, sourceLocation: sourceLocation)
        #expect(again == address, sourceLocation: sourceLocation)
        return address
    }

    /// Decodes an image of each size in turn into one buffer: each decode matches the normal one and leaves
    /// the buffer at its image's size.
    static func expectSizesFollowEachOther(_ coder: any ImageDecoding, _ sizes: [(width: Int, height: Int)],
                                           sourceLocation: SourceLocation = #_sourceLocation,
                                           make: (Int, Int) throws -> Data) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        for (width, height) in sizes {
            try expectReuseMatches(coder, try make(width, height), buffer: &buffer, sourceLocation: sourceLocation)
            #expect(buffer.size == PixelSize(width: width, height: height), sourceLocation: sourceLocation)
        }
    }

    /// Decodes `data` both ways with `options`, expects the same image, and returns the address of `buffer`'s
    /// storage afterwards. The results are dropped on return, so `buffer` is again its storage's only owner.
    @discardableResult
    static func expectReuseMatches(_ coder: any ImageDecoding, _ data: Data, buffer: inout PixelBuffer,
                                   options: ImageDecodeOptions = .init(),
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let expected = try coder.decode(data, options: options)
        let reused = try coder.decode(data, reusing: &buffer, options: options)
        expectSame(reused, expected, sourceLocation: sourceLocation)
        return address(buffer)
    }

    /// Same frames (byte for byte), durations and flags.
    static func expectSame(_ image: Image, _ expected: Image, sourceLocation: SourceLocation = #_sourceLocation) {
        // Compared as one Bool so a mismatch does not print megabytes of pixels.
        let samePixels = image.frames.map(\.pixels) == expected.frames.map(\.pixels)
        #expect(samePixels, "pixels differ", sourceLocation: sourceLocation)
        #expect(image.frameCount == expected.frameCount, sourceLocation: sourceLocation)
        #expect(image.frameDurations == expected.frameDurations, sourceLocation: sourceLocation)
        #expect(image.pixelSize == expected.pixelSize, sourceLocation: sourceLocation)
        #expect(image.pixelFormat == expected.pixelFormat, sourceLocation: sourceLocation)
        #expect(image.scale == expected.scale, sourceLocation: sourceLocation)
        #expect(image.orientation == expected.orientation, sourceLocation: sourceLocation)
        #expect(image.loopCount == expected.loopCount, sourceLocation: sourceLocation)
        #expect(image.format == expected.format, sourceLocation: sourceLocation)
        #expect(image.hasAlpha == expected.hasAlpha, sourceLocation: sourceLocation)
        #expect(image.isThumbnail == expected.isThumbnail, sourceLocation: sourceLocation)
        #expect(image.isIncremental == expected.isIncremental, sourceLocation: sourceLocation)
    }

    /// The reason a decode failed with, or nil if it did not fail with `badImageData`.
    static func reason(_ body: () throws -> Image) -> BadImageDataReason? {
        do {
            _ = try body()
        } catch let WebImageError.badImageData(reason) {
            return reason
        } catch {
            return nil
        }
        return nil
    }

    /// `bad` fails the same way through both entry points, after which `buffer` still decodes `good` (same
    /// size as the raster `buffer` held) into the same storage.
    static func expectFailureKeepsBufferUsable(_ coder: any ImageDecoding, bad: Data, good: Data,
                                               expected: BadImageDataReason,
                                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let before = try expectReuseMatches(coder, good, buffer: &buffer, sourceLocation: sourceLocation)
        #expect(reason { try coder.decode(bad, options: .init()) } == expected, sourceLocation: sourceLocation)
        #expect(reason { try coder.decode(bad, reusing: &buffer, options: .init()) } == expected,
                sourceLocation: sourceLocation)
        let after = try expectReuseMatches(coder, good, buffer: &buffer, sourceLocation: sourceLocation)
        #expect(after == before, "the failed decode lost the buffer's storage", sourceLocation: sourceLocation)
    }

    /// A decode over the pixel limit throws `tooManyPixels` before touching `buffer`.
    static func expectPixelLimitLeavesBufferAlone(_ coder: any ImageDecoding, _ data: Data, size: PixelSize,
                                                  sourceLocation: SourceLocation = #_sourceLocation) {
        var buffer = PixelBuffer(width: 3, height: 2, bytes: (0..<24).map { UInt8($0) })
        let limited = ImageDecodeOptions(maxPixelCount: size.pixelCount - 1)
        let expected = BadImageDataReason.tooManyPixels(width: size.width, height: size.height,
                                                        limit: size.pixelCount - 1)
        #expect(reason { try coder.decode(data, options: limited) } == expected, sourceLocation: sourceLocation)
        #expect(reason { try coder.decode(data, reusing: &buffer, options: limited) } == expected,
                sourceLocation: sourceLocation)
        #expect(buffer == PixelBuffer(width: 3, height: 2, bytes: (0..<24).map { UInt8($0) }), sourceLocation: sourceLocation)
    }

    /// Every option a decode honours, each on its own, for a `source`-sized still.
    static func optionVariants() -> [ImageDecodeOptions] {
        [ImageDecodeOptions(),
         ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)),
         ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 20), preserveAspectRatio: false),
         ImageDecodeOptions(scaleDownLimitBytes: 40_000),
         ImageDecodeOptions(scaleFactor: 2, applyOrientation: true),
         ImageDecodeOptions(cacheKey: "https://example.com/a@3x.png", firstFrameOnly: true)]
    }
}
