import Testing
import WebImageCore

/// `ImageFormat.maxSide` and `Image.fitted(to:)`: the one rule the service and the command line scale a result
/// by before writing it (imgproxy's `fix_size.go`).
@Suite struct FormatMaxSideTests {
    @Test func theSidesImgproxyFixes() {
        let sides = Dictionary(uniqueKeysWithValues: ImageFormat.allCases.compactMap { format in
            format.maxSide.map { (format, $0) }
        })
        #expect(sides == [.webp: 16_383, .avif: 16_384, .heic: 16_384, .gif: 65_535, .ico: 256])
    }

    @Test func everyFrameIsScaledAlikeKeepingTheAspectAndDurations() {
        let frames = (0..<3).map { index in
            ImageFrame(pixels: PixelBuffer(width: 300, height: 200, format: .rgba8) { out in
                for i in out.indices { out[i] = UInt8((i + index * 40) % 256) }
            }, duration: 0.25 * Double(index + 1))
        }
        let fitted = Image(frames: frames, loopCount: 3).fitted(to: .ico)
        #expect(fitted.frames.map(\.pixels.size) == Array(repeating: PixelSize(width: 256, height: 171), count: 3))
        #expect(fitted.frames.map(\.pixels) == frames.map { Resampler.resample($0.pixels, to: PixelSize(width: 256, height: 171)) })
        #expect(fitted.frameDurations == [0.25, 0.5, 0.75] && fitted.loopCount == 3)
    }

    @Test func anImageThatFitsOrAFormatWithoutALimitIsKept() {
        let icon = Image(pixels: PixelBuffer(width: 256, height: 1))
        #expect(icon.fitted(to: .ico) === icon)
        let wide = Image(pixels: PixelBuffer(width: 20_000, height: 1))
        #expect(wide.fitted(to: .png) === wide)
        #expect(wide.fitted(to: .webp).pixelSize == PixelSize(width: 16_383, height: 1))
    }
}
