import WebImage

/// What `trim` keeps, found as imgproxy finds it (`vips_trim` in its `vips.c`, then libvips' `find_trim`):
/// transparency flattened onto magenta, the border colour read from that image's top-left pixel unless the URL
/// names one, noise removed with a 3×3 median (edges repeated), then the smallest rectangle holding every
/// pixel that differs from the border by more than the threshold in red, green or blue.
enum TrimBox {
    /// The rectangle to keep; with equal sides the larger of two opposite margins shrinks to the smaller. nil
    /// when every pixel is border: imgproxy then leaves the image as it is.
    static func find(in pixels: PixelBuffer, trim: ProcessingOptions.Trim) -> PixelRect? {
        let width = pixels.width, height = pixels.height
        let flat = flattenedOntoMagenta(pixels.converted(to: .rgba8))
        let border = trim.color.map { [Int($0.red), Int($0.green), Int($0.blue)] } ?? [Int(flat[0]), Int(flat[1]), Int(flat[2])]
        var left = width, right = -1, top = height, bottom = -1
        // A cancelled job stops here (the worker drops whatever box the rows seen so far give).
        let cancellation = WorkCancellation.current
        flat.withUnsafeBufferPointer { flat in
            for y in 0..<height {
                if y % RasterOps.rowsPerCheck == 0, cancellation?.shouldStop() == true { return }
                let above = max(0, y - 1) * width, row = y * width, below = min(height - 1, y + 1) * width
                for x in 0..<width {
                    let before = max(0, x - 1), after = min(width - 1, x + 1)
                    var differs = false
                    for channel in 0..<3 where !differs {
                        func sample(_ line: Int, _ column: Int) -> Int { Int(flat[(line + column) * 3 + channel]) }
                        let middle = median(sample(above, before), sample(above, x), sample(above, after),
                                            sample(row, before), sample(row, x), sample(row, after),
                                            sample(below, before), sample(below, x), sample(below, after))
                        differs = Double(abs(middle - border[channel])) > trim.threshold
                    }
                    if differs {
                        left = min(left, x)
                        right = max(right, x)
                        top = min(top, y)
                        bottom = max(bottom, y)
                    }
                }
            }
        }
        guard right >= left, bottom >= top else { return nil }
        if trim.equalHorizontal {
            let margin = min(left, width - 1 - right)
            (left, right) = (margin, width - 1 - margin)
        }
        if trim.equalVertical {
            let margin = min(top, height - 1 - bottom)
            (top, bottom) = (margin, height - 1 - margin)
        }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// RGB, three bytes a pixel, each pixel blended over (255, 0, 255) by its alpha.
    private static func flattenedOntoMagenta(_ source: PixelBuffer) -> [UInt8] {
        let magenta = [255, 0, 255]
        var flat = [UInt8](repeating: 0, count: source.width * source.height * 3)
        source.withUnsafeBytes { raw in
            for pixel in 0..<(source.width * source.height) {
                let alpha = Int(raw[pixel * 4 + 3])
                for channel in 0..<3 {
                    let value = Int(raw[pixel * 4 + channel])
                    flat[pixel * 3 + channel] = UInt8((value * alpha + magenta[channel] * (255 - alpha) + 127) / 255)
                }
            }
        }
        return flat
    }

    /// The middle of nine values, by the 19-exchange network of Devillard's "Fast median search".
    private static func median(_ p0: Int, _ p1: Int, _ p2: Int, _ p3: Int, _ p4: Int, _ p5: Int, _ p6: Int,
                               _ p7: Int, _ p8: Int) -> Int {
        var (p0, p1, p2, p3, p4, p5, p6, p7, p8) = (p0, p1, p2, p3, p4, p5, p6, p7, p8)
        func order(_ a: inout Int, _ b: inout Int) { if a > b { swap(&a, &b) } }
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p1); order(&p3, &p4); order(&p6, &p7)
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p3); order(&p5, &p8); order(&p4, &p7)
        order(&p3, &p6); order(&p1, &p4); order(&p2, &p5)
        order(&p4, &p7); order(&p4, &p2); order(&p6, &p4)
        order(&p4, &p2)
        return p4
    }
}
