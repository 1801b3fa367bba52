import Foundation
import Testing
@testable import WebImage

/// Pixel probes on images built here: quadrants red (top-left), green (top-right), blue (bottom-left),
/// white (bottom-right), opaque.
@Suite struct TransformerPixelTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255], white: [UInt8] = [255, 255, 255, 255]

    static func quadrants(width: Int = 40, height: Int = 20) -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                switch (x < width / 2, y < height / 2) {
                case (true, true): bytes += red
                case (false, true): bytes += green
                case (true, false): bytes += blue
                case (false, false): bytes += white
                }
            }
        }
        return Image(pixels: PixelBuffer(width: width, height: height, bytes: bytes), format: .png, hasAlpha: false)
    }

    private func apply(_ t: any ImageTransforming, _ image: Image = quadrants()) throws -> Image {
        let out = try #require(t.transform(image, forKey: "k"))
        #expect(out.isTransformed)
        return out
    }

    @Test func flipHorizontalAndVertical() throws {
        let h = try apply(ImageTransformers.Flip(horizontal: true, vertical: false))
        #expect(h.pixels.rgba8(x: 0, y: 0) == Self.green && h.pixels.rgba8(x: 39, y: 19) == Self.blue)
        let v = try apply(ImageTransformers.Flip(horizontal: false, vertical: true))
        #expect(v.pixels.rgba8(x: 0, y: 0) == Self.blue && v.pixels.rgba8(x: 39, y: 0) == Self.white)
    }

    @Test func cropKeepsTheRectangle() throws {
        let out = try apply(ImageTransformers.Crop(x: 15, y: 5, width: 10, height: 10))
        #expect(out.pixelSize == PixelSize(width: 10, height: 10))
        #expect(out.pixels.rgba8(x: 0, y: 0) == Self.red && out.pixels.rgba8(x: 9, y: 0) == Self.green)
        #expect(out.pixels.rgba8(x: 0, y: 9) == Self.blue && out.pixels.rgba8(x: 9, y: 9) == Self.white)
        #expect(ImageTransformers.Crop(x: 100, y: 100, width: 5, height: 5).transform(Self.quadrants(), forKey: "k") == nil)
        let clipped = try apply(ImageTransformers.Crop(x: 30, y: 10, width: 100, height: 100))
        #expect(clipped.pixelSize == PixelSize(width: 10, height: 10))
    }

    @Test func resizeModes() throws {
        let fill = try apply(ImageTransformers.Resize(width: 20, height: 20, mode: .fill))
        #expect(fill.pixelSize == PixelSize(width: 20, height: 20))
        #expect(fill.pixels.rgba8(x: 2, y: 2) == Self.red && fill.pixels.rgba8(x: 17, y: 17) == Self.white)

        let fit = try apply(ImageTransformers.Resize(width: 20, height: 20, mode: .aspectFit))
        #expect(fit.pixelSize == PixelSize(width: 20, height: 20) && fit.hasAlpha)
        #expect(fit.pixels.rgba8(x: 10, y: 0)[3] == 0)      // padding above (content is 20×10, centred)
        #expect(fit.pixels.rgba8(x: 2, y: 7) == Self.red)
        #expect(fit.pixels.rgba8(x: 17, y: 12) == Self.white)
        #expect(fit.pixels.rgba8(x: 10, y: 19)[3] == 0)

        let fillCrop = try apply(ImageTransformers.Resize(width: 20, height: 20, mode: .aspectFill))
        #expect(fillCrop.pixelSize == PixelSize(width: 20, height: 20) && !fillCrop.hasAlpha)
        // 40×20 scaled to 40×20 then the middle 20 columns kept: red|green on top, blue|white below.
        #expect(fillCrop.pixels.rgba8(x: 2, y: 2) == Self.red && fillCrop.pixels.rgba8(x: 17, y: 2) == Self.green)
        #expect(fillCrop.pixels.rgba8(x: 2, y: 17) == Self.blue)
    }

    @Test func rotateNinetyDegreesCounterClockwiseFitsSize() throws {
        let out = try apply(ImageTransformers.Rotate(angle: .pi / 2, fitSize: true))
        #expect(out.pixelSize == PixelSize(width: 20, height: 40))
        // Counter-clockwise: the right half (green over white) moves to the top.
        #expect(out.pixels.rgba8(x: 2, y: 2) == Self.green && out.pixels.rgba8(x: 17, y: 2) == Self.white)
        #expect(out.pixels.rgba8(x: 2, y: 37) == Self.red && out.pixels.rgba8(x: 17, y: 37) == Self.blue)
        let same = try apply(ImageTransformers.Rotate(angle: .pi / 2, fitSize: false))
        #expect(same.pixelSize == PixelSize(width: 40, height: 20))
        #expect(same.pixels.rgba8(x: 0, y: 10)[3] == 0)
        let diagonal = try apply(ImageTransformers.Rotate(angle: .pi / 4, fitSize: true))
        // ceil(40·cos45 + 20·sin45) = ceil(42.43) = 43 both ways.
        #expect(diagonal.pixelSize == PixelSize(width: 43, height: 43))
        #expect(diagonal.pixels.rgba8(x: 0, y: 0)[3] == 0)
    }

    @Test func tintModes() throws {
        let tint = RGBAColor(red: 0, green: 0, blue: 0, alpha: 255)
        let sourceIn = try apply(ImageTransformers.Tint(color: tint))
        #expect(sourceIn.pixels.rgba8(x: 0, y: 0) == [0, 0, 0, 255])
        let halfRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
        let atop = try apply(ImageTransformers.Tint(color: halfRed, blendMode: .sourceAtop))
        // White under half-transparent red → (255, 127, 127) opaque.
        #expect(atop.pixels.rgba8(x: 39, y: 19) == [255, 127, 127, 255])
        let into = try apply(ImageTransformers.Tint(color: halfRed))
        #expect(into.pixels.rgba8(x: 39, y: 19) == [255, 0, 0, 128] && into.hasAlpha)
    }

    @Test func blurMixesAcrossEdgesAndKeepsFlatAreas() throws {
        let image = Self.quadrants(width: 80, height: 40)
        let out = try apply(ImageTransformers.Blur(radius: 4), image)
        #expect(out.pixels.rgba8(x: 2, y: 2) == Self.red)
        let edge = out.pixels.rgba8(x: 40, y: 5)
        #expect(edge[0] > 60 && edge[0] < 200 && edge[1] > 60 && edge[1] < 200 && edge[3] == 255)
        #expect(ImageTransformers.Blur(radius: 0).transform(image, forKey: "k") === image)
        #expect(ImageTransformers.Blur(radius: -1).transform(image, forKey: "k") == nil)
    }

    @Test func blurBoxesFollowTheSVGRule() {
        // d = ⌊σ·3·√(2π)/4 + 0.5⌋: σ 10 → 19 (odd: three centred boxes), σ 4 → 8 (even: 8 left, 8 right, 9 centred).
        #expect(ImageTransformers.Blur.boxes(radius: 10, scale: 1) == [-9...9, -9...9, -9...9])
        #expect(ImageTransformers.Blur.boxes(radius: 4, scale: 1) == [-4...3, -3...4, -4...4])
        #expect(ImageTransformers.Blur.boxes(radius: 5, scale: 2) == ImageTransformers.Blur.boxes(radius: 10, scale: 1))
        #expect(ImageTransformers.Blur.boxes(radius: 0.5, scale: 1).isEmpty)
    }

    /// A black-to-white step blurred with radius σ must follow the exact Gaussian's step response,
    /// 255·Φ((x + ½ − edge)/σ), within the three-box approximation's error (≤ 6 of 255 here; the former
    /// half-size boxes were off by 28 or more).
    @Test(arguments: [(radius: 10.0, scale: 1.0), (radius: 4.0, scale: 1.0), (radius: 5.0, scale: 2.0)])
    func blurMatchesAnExactGaussian(radius: Double, scale: Double) throws {
        let width = 241, edge = 120
        let bytes = (0..<width).flatMap { x -> [UInt8] in x < edge ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let step = Image(pixels: PixelBuffer(width: width, height: 3, bytes: bytes + bytes + bytes), scale: scale)
        let out = try apply(ImageTransformers.Blur(radius: radius), step)
        let sigma = radius * scale
        var worst = 0.0
        for x in 60..<180 {
            let expected = 255 * 0.5 * (1 + erf((Double(x) + 0.5 - Double(edge)) / sigma / 2.0.squareRoot()))
            let pixel = out.pixels.rgba8(x: x, y: 1)
            worst = max(worst, abs(Double(pixel[0]) - expected))
            #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2] && pixel[3] == 255)
        }
        #expect(worst <= 6, "largest difference from the exact Gaussian: \(worst)")
    }

    @Test func roundCornersClearTheCornersAndDrawTheBorder() throws {
        let out = try apply(ImageTransformers.RoundCorner(radius: 8))
        #expect(out.hasAlpha)
        #expect(out.pixels.rgba8(x: 0, y: 0)[3] == 0 && out.pixels.rgba8(x: 39, y: 19)[3] == 0)
        #expect(out.pixels.rgba8(x: 10, y: 10) == Self.white || out.pixels.rgba8(x: 10, y: 10) == Self.red
                || out.pixels.rgba8(x: 10, y: 10) == Self.blue || out.pixels.rgba8(x: 10, y: 10) == Self.green)
        #expect(out.pixels.rgba8(x: 20, y: 0) == Self.green)  // straight edge untouched
        let someCorners = try apply(ImageTransformers.RoundCorner(radius: 8, corners: [.topLeft]))
        #expect(someCorners.pixels.rgba8(x: 0, y: 0)[3] == 0 && someCorners.pixels.rgba8(x: 39, y: 19) == Self.white)
        let bordered = try apply(ImageTransformers.RoundCorner(radius: 0, borderWidth: 2, borderColor: .black))
        #expect(bordered.pixels.rgba8(x: 0, y: 10) == [0, 0, 0, 255] && bordered.pixels.rgba8(x: 1, y: 10) == [0, 0, 0, 255])
        #expect(bordered.pixels.rgba8(x: 5, y: 5) == Self.red)
    }

    @Test func pipelineRunsInOrderAndEveryFrameIsTransformed() throws {
        let base = Self.quadrants()
        let animated = base.with(frames: [ImageFrame(pixels: base.pixels, duration: 0.1), ImageFrame(pixels: base.pixels, duration: 0.2)])
        let pipeline = ImageTransformers.Pipeline([ImageTransformers.Crop(x: 0, y: 0, width: 20, height: 10),
                                                   ImageTransformers.Flip(horizontal: false, vertical: true)])
        let out = try apply(pipeline, animated)
        #expect(out.frameCount == 2 && out.frameDurations == [0.1, 0.2])
        #expect(out.frames.allSatisfy { $0.pixels.size == PixelSize(width: 20, height: 10) })
        #expect(out.frames[1].pixels.rgba8(x: 0, y: 0) == Self.red)
        let failing = ImageTransformers.Pipeline([ImageTransformers.Crop(x: 500, y: 0, width: 1, height: 1), pipeline])
        #expect(failing.transform(base, forKey: "k") == nil)
    }

    @Test func premultipliedResizeHasNoDarkFringe() throws {
        // Opaque red next to transparent black: shrinking must give red at half alpha, never dark red.
        var bytes: [UInt8] = []
        for _ in 0..<2 { bytes += [255, 0, 0, 255, 0, 0, 0, 0] }
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, bytes: bytes), hasAlpha: true)
        let out = try apply(ImageTransformers.Resize(width: 1, height: 1), image)
        #expect(out.pixels.rgba8(x: 0, y: 0) == [255, 0, 0, 128])
    }
}
