import WebImage

/// imgproxy Pro's chained pipelines: each pipeline after the first processes the one before's result, already
/// decoded and upright.
extension ImageProcessor {
    func chained(_ image: Image, options: ProcessingOptions,
                 watermark custom: SourceBytes?) throws(ProxyError) -> Image {
        var options = options
        // Already upright: only the pipeline's own rotation applies.
        options.autoRotate = false
        var image = image
        if let trim = options.trim, image.frameCount == 1 { image = trimmed(image, trim) }
        let size = image.pixels.size
        let upright = uprightSize(size, orientation: .up, rotate: options.rotate)
        let plan = ProcessingPlan(source: upright, options: options, limits: limits(for: options, frames: image.frameCount))
        return try transform(image, storedSize: size, plan: plan, options: options,
                             watermark: options.watermark == nil ? nil : try watermarkStep(for: options, custom: custom))
    }
}
