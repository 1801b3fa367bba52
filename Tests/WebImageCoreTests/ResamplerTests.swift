import Testing
import WebImageCore

@Suite struct ResamplerTests {
    @Test func areaFilterAveragesBlocks() {
        // A 4×2 raster of two 2×2 blocks (black, white) shrinks to exactly one black and one white pixel.
        var bytes: [UInt8] = []
        for _ in 0..<2 { bytes += [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255] }
        let out = Resampler.resample(PixelBuffer(width: 4, height: 2, bytes: bytes), to: PixelSize(width: 2, height: 1))
        #expect(out.bytes == [0, 0, 0, 255, 255, 255, 255, 255])
    }

    @Test func fractionalAreaIsWeighted() {
        // 3 pixels (0, 90, 180) → 2: each output covers 1.5 inputs → (0 + 45)/1.5 = 30 and (45 + 180)/1.5 = 150.
        let bytes: [UInt8] = [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]
        let out = Resampler.resample(PixelBuffer(width: 3, height: 1, bytes: bytes), to: PixelSize(width: 2, height: 1))
        #expect(out.bytes == [30, 30, 30, 255, 150, 150, 150, 255])
    }

    @Test func premultipliedAlphaLeavesNoDarkFringe() {
        // Opaque red beside fully transparent black: the average is half-transparent pure red, not dark red.
        let bytes: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 0]
        let out = Resampler.resample(PixelBuffer(width: 2, height: 1, bytes: bytes), to: PixelSize(width: 1, height: 1))
        #expect(out.bytes == [255, 0, 0, 128])
    }

    @Test func enlargingInterpolates() {
        let bytes: [UInt8] = [0, 0, 0, 255, 200, 200, 200, 255]
        let out = Resampler.resample(PixelBuffer(width: 2, height: 1, bytes: bytes), to: PixelSize(width: 4, height: 1))
        #expect(out.bytes == [0, 0, 0, 255, 50, 50, 50, 255, 150, 150, 150, 255, 200, 200, 200, 255])
    }

    @Test func sixteenBitStaysSixteenBit() {
        let wide = PixelBuffer(width: 2, height: 2, format: .rgba8, bytes: [UInt8](repeating: 200, count: 16))
            .converted(to: .rgba16)
        let out = Resampler.resample(wide, to: PixelSize(width: 1, height: 1))
        #expect(out.format == .rgba16)
        #expect(out.rgba8(x: 0, y: 0) == [200, 200, 200, 200])
    }

    @Test func finishMakesExactThumbnailAndStampsScale() {
        let image = Image(pixels: PixelBuffer(width: 525, height: 345), format: .png, hasAlpha: true)
        let options = ImageDecodeOptions(cacheKey: "https://example.com/a@2x.png",
                                         thumbnailPixelSize: PixelSize(width: 40, height: 30))
        let thumb = options.finish(image, sourceSize: image.pixelSize)
        #expect(thumb.pixelSize == PixelSize(width: 40, height: 27))
        #expect(thumb.isThumbnail && thumb.scale == 2 && thumb.format == .png)
        let untouched = ImageDecodeOptions().finish(image, sourceSize: image.pixelSize)
        #expect(untouched.pixelSize == image.pixelSize && !untouched.isThumbnail)
    }

    @Test func finishAppliesOrientationOnRequest() {
        let image = Image(pixels: PixelBuffer(width: 3, height: 2), orientation: .right, hasAlpha: false)
        let upright = ImageDecodeOptions(applyOrientation: true).finish(image, sourceSize: image.pixelSize)
        #expect(upright.orientation == .up && upright.pixelSize == PixelSize(width: 2, height: 3))
        let kept = ImageDecodeOptions().finish(image, sourceSize: image.pixelSize)
        #expect(kept.orientation == .right && kept.pixelSize == PixelSize(width: 3, height: 2))
    }

    @Test func memoryCostCountsEveryFrame() {
        let frame = ImageFrame(pixels: PixelBuffer(width: 10, height: 5), duration: 0.1)
        let image = Image(frames: [frame, frame, frame], hasAlpha: true)
        #expect(image.memoryCost == 10 * 4 * 5 * 3)
        #expect(image.isAnimated && image.frameDurations == [0.1, 0.1, 0.1])
    }
}
