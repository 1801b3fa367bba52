import WebImage

/// The image `watermark` draws: the operator's, a URL's (`watermark_url`) or text (`watermark_text`), sized
/// (`watermark_size`), turned (`watermark_rotate`) and given a shadow (`watermark_shadow`).
extension ImageProcessor {
    /// The most pixels a watermark's image may decode to, as the operator's (16 MP).
    static let maxWatermarkPixels = 16 << 20

    /// The watermark for `options`, from `custom` (the bytes of `watermark_url`'s image) when given; nil when
    /// there is no image to draw.
    func watermarkStep(for options: ProcessingOptions, custom: SourceBytes?) throws(ProxyError) -> WatermarkStep? {
        let settings = options.watermarkImage
        var image: PixelBuffer
        if let text = settings.text {
            image = try TextWatermark.render(markup: text, limits: limits(for: options))
        } else if let custom {
            do {
                image = try coders.decode(custom.data, options: ImageDecodeOptions(firstFrameOnly: true,
                                                                                   maxPixelCount: Self.maxWatermarkPixels))
                    .pixels.converted(to: .rgba8)
            } catch {
                throw .unprocessable("watermark_url's image cannot be used: \(error)")
            }
        } else if let operatorImage = watermark?.image {
            image = operatorImage
        } else {
            return nil
        }
        if settings.width > 0 || settings.height > 0, (options.watermark?.scale ?? 0) == 0 {
            image = Self.fitted(image, width: settings.width, height: settings.height, limits: limits(for: options))
        }
        if settings.rotation != 0 { image = WatermarkEffects.rotated(image, degrees: settings.rotation) }
        if settings.shadow > 0 { image = WatermarkEffects.shadowed(image, sigma: settings.shadow) }
        return WatermarkStep(image: image, opacity: watermarkOpacity)
    }

    /// `image` fitted into `width` × `height` (a side of 0 follows the aspect ratio), enlarging allowed, within
    /// the result's limits.
    private static func fitted(_ image: PixelBuffer, width: Int, height: Int, limits: ProcessingPlan.Limits) -> PixelBuffer {
        let (w, h) = (Double(image.width), Double(image.height))
        let factor = width == 0 ? Double(height) / h : height == 0 ? Double(width) / w
            : min(Double(width) / w, Double(height) / h)
        let side = Double(limits.maxSide)
        let bounded = min(factor, side / w, side / h, (Double(limits.maxPixels) / (w * h)).squareRoot())
        let target = PixelSize(width: max(1, ProcessingPlan.scaled(image.width, by: bounded)),
                               height: max(1, ProcessingPlan.scaled(image.height, by: bounded)))
        return target == image.size ? image : Resampler.resample(image, to: target)
    }
}
