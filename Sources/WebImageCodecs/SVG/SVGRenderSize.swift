import Foundation
import WebImageCore

/// The raster size a decode draws the document at, from its intrinsic size and the options.
struct SVGRenderSize {
    /// The size of the raster to draw.
    let pixelSize: PixelSize
    /// Whether it is other than intrinsic size × scale (a thumbnail or a scale-down).
    let isThumbnail: Bool

    /// The thumbnail size fitted to the document (scaled up as well as down), else the intrinsic size × the
    /// resolved scale; then shrunk to the scale-down limit. Throws `tooManyPixels` past the pixel limit.
    init(intrinsic: (width: Double, height: Double), options: ImageDecodeOptions) throws {
        var width = intrinsic.width * options.resolvedScale
        var height = intrinsic.height * options.resolvedScale
        var reduced = false
        if let requested = options.thumbnailPixelSize, requested.width > 0, requested.height > 0 {
            let fitted = ImageGeometry.scaledSize(imageSize: CGSize(width: intrinsic.width, height: intrinsic.height),
                                                  scaleSize: CGSize(width: requested.width, height: requested.height),
                                                  preserveAspectRatio: options.preserveAspectRatio, shouldScaleUp: true)
            width = Double(fitted.width)
            height = Double(fitted.height)
            reduced = true
        }
        var size = try Self.roundedSize(width, height)
        try options.checkPixelCount(width: size.width, height: size.height)
        if let limit = options.scaleDownLimitBytes, limit > 0, size.pixelCount * 4 > limit {
            size = ImageGeometry.scaledDownSize(source: size, limitBytes: limit, bytesPerPixel: 4, frameCount: 1)
            reduced = true
        }
        pixelSize = size
        isThumbnail = reduced
    }

    /// Whole pixels, rounded as libvips does (half up); a side under half a pixel, or one past `Int32.max`
    /// (where a pixel count could no longer be multiplied safely), is an error.
    static func roundedSize(_ width: Double, _ height: Double) throws -> PixelSize {
        guard width.isFinite, height.isFinite, width >= 0.5, height >= 0.5 else {
            throw WebImageError.badImageData(.corrupt("SVG size \(width)x\(height) is not drawable"))
        }
        let limit = Double(Int32.max)
        guard width <= limit, height <= limit else {
            throw WebImageError.badImageData(.corrupt("SVG size \(width)x\(height) is over \(Int32.max) pixels a side"))
        }
        return PixelSize(width: Int(width.rounded(.toNearestOrAwayFromZero)),
                         height: Int(height.rounded(.toNearestOrAwayFromZero)))
    }
}
