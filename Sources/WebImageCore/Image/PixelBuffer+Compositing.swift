/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable {
    public var x, y, width, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}

extension PixelBuffer {
    /// The pixels of `rect`, clipped to the raster and at least one pixel, in this raster's format; the raster
    /// itself when `rect` covers it. The one crop every stage uses (transformers, the AVIF clean aperture,
    /// the image service's plan).
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        let left = min(max(0, rect.x), width - 1), top = min(max(0, rect.y), height - 1)
        let columns = max(1, min(rect.width, width - left)), rows = max(1, min(rect.height, height - top))
        if left == 0, top == 0, columns == width, rows == height { return self }
        let bpp = format.bytesPerPixel, rowBytes = columns * bpp
        return PixelBuffer(width: columns, height: rows, format: format) { out in
            withUnsafeBytes { source in
                for row in 0..<rows {
                    out.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: source.baseAddress!.advanced(by: ((top + row) * width + left) * bpp),
                                    byteCount: rowBytes)
                }
            }
        }
    }

    /// Every pixel composited (straight alpha) over an opaque `color`, as opaque RGBA8: what formats without
    /// alpha store, and the service's `background` option.
    public func flattened(onto color: RGBAColor) -> PixelBuffer {
        let source = converted(to: .rgba8)
        let background = [UInt32(color.red), UInt32(color.green), UInt32(color.blue)]
        return PixelBuffer(width: width, height: height) { out in
            source.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let alpha = UInt32(raw[i + 3])
                    for channel in 0..<3 {
                        out[i + channel] = UInt8((UInt32(raw[i + channel]) * alpha + background[channel] * (255 - alpha) + 127) / 255)
                    }
                    out[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}

extension PixelBuffer {
    /// This raster (as RGBA8) on a transparent `size` canvas with its top-left corner at `origin`, clipped to
    /// the canvas: the one embed behind extending and padding.
    public func embedded(in size: PixelSize, at origin: (x: Int, y: Int)) -> PixelBuffer {
        let source = converted(to: .rgba8)
        var canvas = PixelBuffer(width: size.width, height: size.height)
        let left = max(0, origin.x), top = max(0, origin.y)
        let right = min(size.width, origin.x + width), bottom = min(size.height, origin.y + height)
        guard left < right, top < bottom else { return canvas }
        let rowBytes = (right - left) * 4
        canvas.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { raw in
                for row in top..<bottom {
                    let from = ((row - origin.y) * width + (left - origin.x)) * 4
                    out.baseAddress!.advanced(by: (row * size.width + left) * 4)
                        .copyMemory(from: raw.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
        return canvas
    }
}

extension PixelBuffer {
    /// `overlay` drawn over this raster (both as straight-alpha RGBA8) with its top-left corner at `origin`,
    /// its alpha multiplied by `opacity`; the parts outside are clipped. The one source-over blend (watermarks).
    public func composited(_ overlay: PixelBuffer, at origin: (x: Int, y: Int), opacity: Double = 1) -> PixelBuffer {
        var result = converted(to: .rgba8)
        let top = overlay.converted(to: .rgba8)
        let left = max(0, origin.x), upper = max(0, origin.y)
        let right = min(width, origin.x + top.width), lower = min(height, origin.y + top.height)
        guard left < right, upper < lower, opacity > 0 else { return result }
        let scale = UInt32((min(1, opacity) * 255).rounded())
        result.withUnsafeMutableBytes { out in
            top.withUnsafeBytes { over in
                for y in upper..<lower {
                    for x in left..<right {
                        let o = ((y - origin.y) * top.width + (x - origin.x)) * 4, d = (y * width + x) * 4
                        let alpha = (UInt32(over[o + 3]) * scale + 127) / 255
                        guard alpha > 0 else { continue }
                        let below = UInt32(out[d + 3]) * (255 - alpha) / 255
                        let total = alpha + below
                        for channel in 0..<3 {
                            let value = (UInt32(over[o + channel]) * alpha + UInt32(out[d + channel]) * below + total / 2) / total
                            out[d + channel] = UInt8(value)
                        }
                        out[d + 3] = UInt8(min(255, total))
                    }
                }
            }
        }
        return result
    }
}
