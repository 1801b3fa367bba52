import Foundation

/// SDWebImage's sizing rules, reproduced to the pixel (`SDImageCoderHelper`, `SDImageScaleFactorForKey`).
public enum ImageGeometry {
    /// The thumbnail size for `source` asked to fit `requested`.
    ///
    /// Keeping the aspect ratio, the side that limits is exactly the requested one and the other is rounded
    /// up (5250×3450 into 400×300 → 400×263). Without it the result is exactly `requested` (a stretched
    /// thumbnail, as SDWebImage's ImageIO coder gives). Either way an image that already fits inside `requested`
    /// keeps its size (80×60 into 400×400 stays 80×60, stretched or not).
    public static func thumbnailSize(source: PixelSize, requested: PixelSize, preserveAspectRatio: Bool) -> PixelSize {
        guard source.width > 0, source.height > 0, requested.width > 0, requested.height > 0 else { return source }
        guard source.width > requested.width || source.height > requested.height else { return source }
        guard preserveAspectRatio else { return requested }
        let size = scaledSize(imageSize: CGSize(width: source.width, height: source.height),
                              scaleSize: CGSize(width: requested.width, height: requested.height),
                              preserveAspectRatio: true, shouldScaleUp: false)
        return PixelSize(width: max(1, Int(size.width)), height: max(1, Int(size.height)))
    }

    /// SDWebImage's `scaledSizeWithImageSize:scaleSize:preserveAspectRatio:shouldScaleUp:`: the size of
    /// `imageSize` scaled to `scaleSize`.
    ///
    /// - Keeping the aspect ratio, the limiting side is exactly `scaleSize`'s and the other is rounded up
    ///   (1000×500 into 300×300 → 300×150); without it the result is `scaleSize` (stretched).
    /// - Without `shouldScaleUp`, each side is then clamped to the image's own (100×200 into 150×150,
    ///   stretched → 100×150; 100×50 into 400×400 keeping the ratio → 100×50); with it, 100×50 → 400×200.
    /// - A zero or negative side in either size gives `imageSize` back.
    public static func scaledSize(imageSize: CGSize, scaleSize: CGSize, preserveAspectRatio: Bool,
                                  shouldScaleUp: Bool) -> CGSize {
        let width = imageSize.width, height = imageSize.height
        guard width > 0, height > 0, scaleSize.width > 0, scaleSize.height > 0 else { return imageSize }
        var result = scaleSize
        if preserveAspectRatio {
            let pixelRatio = width / height
            if pixelRatio > scaleSize.width / scaleSize.height {
                result.height = (scaleSize.width / pixelRatio).rounded(.up)
            } else {
                result.width = (scaleSize.height * pixelRatio).rounded(.up)
            }
        }
        if !shouldScaleUp {
            result.width = min(width, result.width)
            result.height = min(height, result.height)
        }
        return result
    }

    /// The largest size with `source`'s aspect ratio whose `frameCount` frames fit in `limitBytes`.
    ///
    /// 5250×3450 RGBA under 62,914,560 bytes → 4892×3214; 2000×2000 under 4,000,000 → 1000×1000;
    /// 50×50 × 5 frames under 2,000 → 10×10.
    public static func scaledDownSize(source: PixelSize, limitBytes: Int, bytesPerPixel: Int, frameCount: Int) -> PixelSize {
        guard source.width > 0, source.height > 0 else { return PixelSize(width: 1, height: 1) }
        let framePixels = Double(limitBytes / bytesPerPixel / max(1, frameCount))
        let ratio = Double(source.height) / Double(source.width)
        let width = (framePixels / ratio).squareRoot()
        let height = width * ratio
        return PixelSize(width: Int(max(1, width.rounded(.down))), height: Int(max(1, height.rounded(.down))))
    }

    /// The scale encoded in a key or file name: `@2x.`/`%402x.` → 2, `@3x.`/`%403x.` → 3, otherwise 1
    /// (keys shorter than 8 characters are always 1).
    public static func scale(forKey key: String) -> Double {
        guard key.count >= 8 else { return 1 }
        if key.contains("@2x.") || key.contains("%402x.") { return 2 }
        if key.contains("@3x.") || key.contains("%403x.") { return 3 }
        return 1
    }
}
