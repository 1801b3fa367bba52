import WebImage

/// The pixel operations the service adds to the library's transformers and `PixelBuffer`'s crop, flatten and
/// embed.
///
/// Each polls the worker's ``WorkCancellation`` every ``rowsPerCheck`` rows and, once cancelled, stops and
/// returns an unfinished result: the worker throws it away (``WorkCancellation/run(_:)``).
enum RasterOps {
    /// Rows between two cancellation checks.
    static let rowsPerCheck = 16

    /// An unsharp mask: each colour pushed away from its `blurred` neighbourhood by the difference.
    static func sharpen(_ pixels: PixelBuffer, blurred: PixelBuffer) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8), soft = blurred.converted(to: .rgba8)
        let cancellation = WorkCancellation.current
        let rowBytes = source.width * 4
        return PixelBuffer(width: source.width, height: source.height, format: .rgba8) { out in
            source.withUnsafeBytes { raw in
                soft.withUnsafeBytes { blur in
                    for y in 0..<source.height {
                        if y % rowsPerCheck == 0, cancellation?.shouldStop() == true { return }
                        for i in y * rowBytes ..< (y + 1) * rowBytes {
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

    /// Squares of `block` × `block` pixels from the top-left corner, each its average (rounded); the squares cut
    /// by the right and bottom edges average the image mirrored past the edge, as libvips' embed-and-shrink
    /// that imgproxy uses.
    static func pixelated(_ pixels: PixelBuffer, block: Int) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8)
        let width = source.width, height = source.height
        func mirrored(_ value: Int, _ length: Int) -> Int { value < length ? value : max(0, 2 * length - 1 - value) }
        let cancellation = WorkCancellation.current
        return PixelBuffer(width: width, height: height, format: .rgba8) { out in
            source.withUnsafeBytes { raw in
                let count = block * block
                for top in stride(from: 0, to: height, by: block) {
                    if cancellation?.shouldStop() == true { return }
                    for left in stride(from: 0, to: width, by: block) {
                        var sums: (Int, Int, Int, Int) = (0, 0, 0, 0)
                        for y in top..<(top + block) {
                            let row = mirrored(y, height) * width
                            for x in left..<(left + block) {
                                let i = (row + mirrored(x, width)) * 4
                                sums.0 += Int(raw[i]); sums.1 += Int(raw[i + 1])
                                sums.2 += Int(raw[i + 2]); sums.3 += Int(raw[i + 3])
                            }
                        }
                        func average(_ sum: Int) -> UInt8 { UInt8((sum + count / 2) / count) }
                        let (r, g, b, a) = (average(sums.0), average(sums.1), average(sums.2), average(sums.3))
                        for y in top..<min(height, top + block) {
                            for x in left..<min(width, left + block) {
                                let i = (y * width + x) * 4
                                out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a
                            }
                        }
                    }
                }
            }
        }
    }
}
