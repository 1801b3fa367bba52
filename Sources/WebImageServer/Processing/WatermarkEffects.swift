import Foundation
import WebImage

/// imgproxy Pro's watermark rotation (`watermark_rotate`) and shadow (`watermark_shadow`), applied to the
/// watermark before it is placed. Both return straight RGBA8.
enum WatermarkEffects {
    /// The largest shadow sigma, in pixels: the shadow's canvas grows by 3σ a side and its blur works on 16
    /// bytes a pixel.
    static let maxShadowSigma = 100.0

    /// `pixels` turned clockwise by `degrees`, on a canvas grown to the rotated bounding box (each side the
    /// ceiling of the exact one), transparent outside. Multiples of 90° are exact turns of the pixels; other
    /// angles are sampled bilinearly on premultiplied colour (`ImageTransformers.Rotate`), so transparent
    /// neighbours leave no dark fringe. A non-finite angle leaves the pixels as they are.
    static func rotated(_ pixels: PixelBuffer, degrees: Double) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8)
        guard degrees.isFinite else { return source }
        if degrees.truncatingRemainder(dividingBy: 90) == 0 {
            // Quarter turns clockwise; EXIF's `right` is the one turned a quarter clockwise to stand upright.
            let quarterTurns = (Int(degrees / 90) % 4 + 4) % 4
            return source.applying([.up, .right, .down, .left][quarterTurns])
        }
        // The transformer turns counter-clockwise, by radians.
        let rotate = ImageTransformers.Rotate(angle: -degrees * .pi / 180, fitSize: true)
        return rotate.transform(Image(pixels: source), forKey: "")?.pixels ?? source
    }

    /// `pixels` over its shadow: a black copy of its alpha blurred by a Gaussian of standard deviation `sigma`
    /// (clamped to 0…``maxShadowSigma``; `ImageTransformers.Blur`, three box passes each way), not offset. The
    /// canvas grows by ⌈3σ⌉ on every side so the blur is not cut, the watermark in its middle; a sigma of 0 (or
    /// not a number) leaves the pixels as they are.
    static func shadowed(_ pixels: PixelBuffer, sigma: Double) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8)
        let sigma = sigma.isNaN ? 0 : min(max(sigma, 0), maxShadowSigma)
        guard sigma > 0 else { return source }
        let margin = Int((3 * sigma).rounded(.up))
        let size = PixelSize(width: source.width + 2 * margin, height: source.height + 2 * margin)
        var mask = PixelBuffer(width: size.width, height: size.height)
        mask.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { raw in
                for y in 0..<source.height {
                    let row = ((y + margin) * size.width + margin) * 4
                    for x in 0..<source.width { out[row + x * 4 + 3] = raw[(y * source.width + x) * 4 + 3] }
                }
            }
        }
        let shadow = ImageTransformers.Blur(radius: sigma).transform(Image(pixels: mask), forKey: "")?.pixels ?? mask
        return shadow.composited(source, at: (margin, margin))
    }
}
