import WebImage

/// The pixel operations the service adds to the library's transformers, on straight-alpha RGBA8 rasters.
enum RasterOps {
    /// The pixels of `rect` (clipped to the raster).
    static func crop(_ pixels: PixelBuffer, _ rect: ProcessingPlan.Rect) -> PixelBuffer {
        let left = min(max(0, rect.x), pixels.width - 1), top = min(max(0, rect.y), pixels.height - 1)
        let width = max(1, min(rect.width, pixels.width - left)), height = max(1, min(rect.height, pixels.height - top))
        if left == 0, top == 0, width == pixels.width, height == pixels.height { return pixels }
        let bpp = pixels.format.bytesPerPixel
        return PixelBuffer(width: width, height: height, format: pixels.format) { out in
            pixels.withUnsafeBytes { source in
                let rowBytes = width * bpp
                for row in 0..<height {
                    let from = ((top + row) * pixels.width + left) * bpp
                    out.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
    }

    /// Every pixel composited over an opaque `color`.
    static func flatten(_ pixels: PixelBuffer, onto color: RGBAColor) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8)
        let background = [UInt32(color.red), UInt32(color.green), UInt32(color.blue)]
        return PixelBuffer(width: source.width, height: source.height, format: .rgba8) { out in
            source.withUnsafeBytes { raw in
                for i in stride(from: 0, to: raw.count, by: 4) {
                    let alpha = UInt32(raw[i + 3])
                    for c in 0..<3 {
                        out[i + c] = UInt8((UInt32(raw[i + c]) * alpha + background[c] * (255 - alpha) + 127) / 255)
                    }
                    out[i + 3] = 255
                }
            }
        }
    }

    /// An unsharp mask: each colour pushed away from its `blurred` neighbourhood by the difference.
    static func sharpen(_ pixels: PixelBuffer, blurred: PixelBuffer) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8), soft = blurred.converted(to: .rgba8)
        return PixelBuffer(width: source.width, height: source.height, format: .rgba8) { out in
            source.withUnsafeBytes { raw in
                soft.withUnsafeBytes { blur in
                    for i in 0..<raw.count {
                        if i % 4 == 3 {
                            out[i] = raw[i]
                        } else {
                            let value = 2 * Int(raw[i]) - Int(blur[i])
                            out[i] = UInt8(min(255, max(0, value)))
                        }
                    }
                }
            }
        }
    }
}
