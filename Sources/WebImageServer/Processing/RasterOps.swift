import WebImage

/// The pixel operation the service adds to the library's transformers and `PixelBuffer`'s crop and flatten.
enum RasterOps {
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
