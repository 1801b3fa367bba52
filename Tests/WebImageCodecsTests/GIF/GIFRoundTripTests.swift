import Foundation
import Testing
import WebImageCore
@testable import WebImageCodecs

/// Encode → decode: animation metadata, exact palettes, transparency, quantisation of rich images.
@Suite struct GIFRoundTripTests {
    /// An opaque frame with `count` distinct colours (count ≤ width × height), each pixel's colour from its index.
    static func distinctColors(width: Int, height: Int, count: Int, seed: Int = 0) -> PixelBuffer {
        GIFTestSupport.buffer(width: width, height: height, (0..<width * height).map { i in
            let c = (i + seed) % count
            return [UInt8(c & 0xFF), UInt8((c * 7 + seed) & 0xFF), UInt8((c >> 8) * 60 + 3), 255]
        })
    }

    static func roundTrip(_ image: Image, _ options: ImageEncodeOptions = .init()) throws -> Image {
        let data = try GIFCoder().encode(image, as: .gif, options: options)
        #expect(ImageFormat(sniffing: data) == .gif)
        return try GIFCoder().decode(data, options: .init())
    }

    @Test func animationKeepsFramesDurationsAndLoopCount() throws {
        let frames = [0.05, 0.123, 1.0, 0.5].enumerated().map { i, duration in
            ImageFrame(pixels: Self.distinctColors(width: 8, height: 6, count: 40, seed: i), duration: duration)
        }
        let decoded = try Self.roundTrip(Image(frames: frames, loopCount: 3, hasAlpha: false))
        #expect(decoded.frameCount == 4)
        #expect(decoded.frameDurations == [0.05, 0.12, 1.0, 0.5])
        #expect(decoded.loopCount == 3)
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
        #expect(!decoded.hasAlpha)
    }

    @Test func loopCountOptionOverridesImage() throws {
        let frames = (0..<2).map { ImageFrame(pixels: Self.distinctColors(width: 2, height: 2, count: 4, seed: $0), duration: 0.2) }
        let forever = try Self.roundTrip(Image(frames: frames, loopCount: 5), ImageEncodeOptions(loopCount: 0))
        #expect(forever.loopCount == 0)
        let once = try Self.roundTrip(Image(frames: frames, loopCount: 1))
        #expect(once.loopCount == 1)
    }

    @Test(arguments: [1, 2, 255, 256])
    func staticImageWithFewColorsIsPixelExact(colors: Int) throws {
        let pixels = Self.distinctColors(width: 16, height: 17, count: colors)
        let decoded = try Self.roundTrip(Image(pixels: pixels, hasAlpha: false))
        #expect(decoded.frameCount == 1)
        #expect(decoded.pixels == pixels)
    }

    @Test func transparencyIsKept() throws {
        var quads = GIFTestSupport.quads(Self.distinctColors(width: 8, height: 8, count: 255))
        for i in stride(from: 0, to: 64, by: 3) { quads[i] = [0, 0, 0, 0] }
        quads[1] = [9, 8, 7, 40]
        quads[2] = [1, 2, 3, 200]
        let decoded = try Self.roundTrip(Image(pixels: GIFTestSupport.buffer(width: 8, height: 8, quads)))
        var expected = quads
        expected[1] = [0, 0, 0, 0]
        expected[2] = [1, 2, 3, 255]
        #expect(GIFTestSupport.quads(decoded.pixels) == expected)
        #expect(decoded.hasAlpha)
    }

    /// Transparent pixels of a later frame must not show the frame before (each frame starts from clear).
    @Test func animatedTransparencyDoesNotBleed() throws {
        let opaque = GIFTestSupport.buffer(width: 2, height: 1, [[10, 20, 30, 255], [40, 50, 60, 255]])
        let holed = GIFTestSupport.buffer(width: 2, height: 1, [[0, 0, 0, 0], [70, 80, 90, 255]])
        let decoded = try Self.roundTrip(Image(frames: [ImageFrame(pixels: opaque, duration: 0.1),
                                                        ImageFrame(pixels: holed, duration: 0.1)]))
        #expect(decoded.frames.map(\.pixels) == [opaque, holed])
    }

    @Test func animationStoresOnlyWhatChanges() throws {
        let background = Self.distinctColors(width: 64, height: 64, count: 200)
        let frames = (0..<20).map { (i: Int) -> ImageFrame in
            var quads = GIFTestSupport.quads(background)
            for y in 10..<14 { for x in (i * 2)..<(i * 2 + 4) { quads[y * 64 + x] = [255, 255, 255, 255] } }
            return ImageFrame(pixels: GIFTestSupport.buffer(width: 64, height: 64, quads), duration: 0.05)
        }
        let animation = try GIFCoder().encode(Image(frames: frames), as: .gif, options: .init())
        let still = try GIFCoder().encode(Image(pixels: frames[0].pixels), as: .gif, options: .init())
        // 19 small changed rectangles cost less than one more full frame.
        #expect(animation.count < still.count * 2)
        let decoded = try GIFCoder().decode(animation, options: .init())
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
    }

    /// Random frames where pixels switch between colours and transparency in every direction.
    @Test func transparencyTransitionsRoundTripExactly() throws {
        var random = GIFFuzzTests.Generator(state: 42)
        let choices: [[UInt8]] = [[0, 0, 0, 0], [200, 10, 10, 255], [10, 200, 10, 255], [10, 10, 200, 255]]
        let frames = (0..<25).map { (i: Int) -> ImageFrame in
            let quads = (0..<30).map { (_: Int) -> [UInt8] in choices[random.next(i % 5 == 0 ? 2 : 4)] }
            return ImageFrame(pixels: GIFTestSupport.buffer(width: 6, height: 5, quads), duration: 0.1)
        }
        let decoded = try Self.roundTrip(Image(frames: frames))
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
        let decoder = try GIFCoder().makeAnimatedDecoder(try GIFCoder().encode(Image(frames: frames), as: .gif, options: .init()),
                                                         options: .init())
        for index in [24, 3, 17, 0, 9] { #expect(try decoder.frame(at: index) == frames[index].pixels) }
    }

    @Test func richImageIsQuantisedCloselyToAtMost256Colors() throws {
        let quads = (0..<64 * 64).map { i -> [UInt8] in
            let x = i % 64, y = i / 64
            return [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255]
        }
        let source = GIFTestSupport.buffer(width: 64, height: 64, quads)
        let decoded = try Self.roundTrip(Image(pixels: source, hasAlpha: false))
        let out = GIFTestSupport.quads(decoded.pixels)
        #expect(Set(out).count <= 256)
        let errors = zip(quads, out).map { a, b in (0..<3).map { abs(Int(a[$0]) - Int(b[$0])) }.max() ?? 0 }
        let meanError = Double(errors.reduce(0, +)) / Double(errors.count)
        #expect(meanError < 8, "mean worst-channel error \(meanError)")
        #expect(errors.max() ?? 0 <= 40)
        #expect(out.allSatisfy { $0[3] == 255 })
    }

    @Test func sixteenBitImagesAreEncodedAsEightBit() throws {
        let eight = Self.distinctColors(width: 5, height: 5, count: 20)
        let decoded = try Self.roundTrip(Image(pixels: eight.converted(to: .rgba16), hasAlpha: false))
        #expect(decoded.pixels == eight)
    }

    @Test func firstFrameOnlyAndMaxPixelSize() throws {
        let frames = (0..<3).map { ImageFrame(pixels: Self.distinctColors(width: 40, height: 20, count: 9, seed: $0), duration: 0.1) }
        let image = Image(frames: frames)
        let first = try Self.roundTrip(image, ImageEncodeOptions(firstFrameOnly: true))
        #expect(first.frameCount == 1)
        #expect(first.pixels == frames[0].pixels)
        let small = try Self.roundTrip(image, ImageEncodeOptions(maxPixelSize: PixelSize(width: 10, height: 10)))
        #expect(small.pixelSize == PixelSize(width: 10, height: 5))
        #expect(small.frameCount == 3)
    }

    @Test func encodesOnlyGIF() {
        #expect(GIFCoder().canEncode(to: .gif))
        #expect(!GIFCoder().canEncode(to: .png))
        #expect(throws: WebImageError.self) {
            try GIFCoder().encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png, options: .init())
        }
    }
}
