import WebImage

/// imgproxy's watermark step (`processing/watermark.go`): the operator's image fitted into a fraction of the
/// result (enlarging allowed), then drawn at its gravity and offsets (it may hang over the edges), or padded by
/// the offsets and tiled over the whole result from the centre, at the URL's opacity times the operator's.
struct WatermarkStep: Sendable {
    let image: PixelBuffer
    let opacity: Double

    /// `frame` with the watermark `options` asks for; `dprScale` multiplies offsets in pixels.
    func apply(_ options: ProcessingOptions.Watermark, to frame: PixelBuffer, dprScale: Double) -> PixelBuffer {
        let mark = fitted(options, in: frame.size)
        let opacity = options.opacity * opacity
        guard options.replicates else {
            let at = ProcessingPlan.position(mark.size, in: frame.size, gravity: options.gravity, offsetX: options.offsetX,
                                             offsetY: options.offsetY, offsetScale: dprScale, allowsOverflow: true)
            return frame.composited(mark, at: at, opacity: opacity)
        }
        let dx = max(0, ProcessingPlan.offset(options.offsetX, of: frame.width, scale: dprScale))
        let dy = max(0, ProcessingPlan.offset(options.offsetY, of: frame.height, scale: dprScale))
        let tile = mark.embedded(in: PixelSize(width: mark.width + dx, height: mark.height + dy), at: (dx / 2, dy / 2))
        return frame.composited(Self.tiled(tile, over: frame.size), at: (0, 0), opacity: opacity)
    }

    /// `tile` repeated over `size`, one tile centred on it.
    private static func tiled(_ tile: PixelBuffer, over size: PixelSize) -> PixelBuffer {
        let shiftX = ((size.width - tile.width) / 2 % tile.width + tile.width) % tile.width
        let shiftY = ((size.height - tile.height) / 2 % tile.height + tile.height) % tile.height
        return PixelBuffer(width: size.width, height: size.height) { out in
            tile.withUnsafeBytes { source in
                for y in 0..<size.height {
                    let row = ((y - shiftY) % tile.height + tile.height) % tile.height * tile.width
                    for x in 0..<size.width {
                        let from = (row + ((x - shiftX) % tile.width + tile.width) % tile.width) * 4
                        let to = (y * size.width + x) * 4
                        for channel in 0..<4 { out[to + channel] = source[from + channel] }
                    }
                }
            }
        }
    }

    /// The watermark fitted into `scale` of the result's size, or as it is.
    private func fitted(_ options: ProcessingOptions.Watermark, in size: PixelSize) -> PixelBuffer {
        guard options.scale > 0 else { return image }
        let boxWidth = max(1, ProcessingPlan.evenScaled(size.width, by: options.scale))
        let boxHeight = max(1, ProcessingPlan.evenScaled(size.height, by: options.scale))
        let factor = min(Double(boxWidth) / Double(image.width), Double(boxHeight) / Double(image.height))
        let target = PixelSize(width: max(1, ProcessingPlan.scaled(image.width, by: factor)),
                               height: max(1, ProcessingPlan.scaled(image.height, by: factor)))
        return target == image.size ? image : Resampler.resample(image, to: target)
    }
}
