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
