/// Resizes rasters with an area (box) filter when shrinking and bilinear interpolation when enlarging,
/// in premultiplied alpha so transparent pixels leave no dark fringes.
public enum Resampler {
    /// `source` resized to `size` (the same format); returns `source` itself when the size already matches.
    public static func resample(_ source: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        precondition(size.width > 0 && size.height > 0, "resample needs a positive size")
        if source.size == size { return source }
        let maxValue: Float = source.format == .rgba8 ? 255 : 65535
        let xTaps = taps(from: source.width, to: size.width)
        let yTaps = taps(from: source.height, to: size.height)

        // Horizontal pass: every source row → premultiplied floats, `size.width` pixels wide.
        var horizontal = [Float](repeating: 0, count: size.width * source.height * 4)
        var row = [Float](repeating: 0, count: source.width * 4)
        source.withUnsafeBytes { raw in
            horizontal.withUnsafeMutableBufferPointer { out in
                row.withUnsafeMutableBufferPointer { row in
                    for y in 0..<source.height {
                        loadPremultipliedRow(raw, format: source.format, y: y, width: source.width,
                                             maxValue: maxValue, into: row)
                        let base = y * size.width * 4
                        for (ox, tap) in xTaps.enumerated() {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            for (index, weight) in zip(tap.indices, tap.weights) {
                                let i = index * 4
                                r += row[i] * weight; g += row[i + 1] * weight
                                b += row[i + 2] * weight; a += row[i + 3] * weight
                            }
                            let o = base + ox * 4
                            out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = a
                        }
                    }
                }
            }
        }

        // Vertical pass, then back to straight alpha.
        return PixelBuffer(width: size.width, height: size.height, format: source.format) { out in
            horizontal.withUnsafeBufferPointer { h in
                var line = [Float](repeating: 0, count: size.width * 4)
                for (oy, tap) in yTaps.enumerated() {
                    for i in line.indices { line[i] = 0 }
                    for (index, weight) in zip(tap.indices, tap.weights) {
                        let base = index * size.width * 4
                        for i in 0..<line.count { line[i] += h[base + i] * weight }
                    }
                    storeStraightRow(line, into: out, format: source.format, y: oy, maxValue: maxValue)
                }
            }
        }
    }

    /// Which source samples (and how much of each) make up every destination sample along one axis.
    struct Tap {
        var indices: [Int]
        var weights: [Float]
    }

    static func taps(from source: Int, to destination: Int) -> [Tap] {
        let scale = Double(source) / Double(destination)
        return (0..<destination).map { d in
            if scale >= 1 {
                // Area: destination sample d covers [d·scale, (d+1)·scale) of the source.
                let start = Double(d) * scale, end = start + scale
                var indices: [Int] = [], weights: [Float] = []
                var s = Int(start.rounded(.down))
                while Double(s) < end && s < source {
                    let overlap = min(end, Double(s + 1)) - max(start, Double(s))
                    if overlap > 1e-9 {
                        indices.append(s)
                        weights.append(Float(overlap / scale))
                    }
                    s += 1
                }
                return Tap(indices: indices, weights: weights)
            }
            // Bilinear between the two nearest source centres.
            let position = min(max((Double(d) + 0.5) * scale - 0.5, 0), Double(source - 1))
            let left = Int(position.rounded(.down)), right = min(left + 1, source - 1)
            let fraction = Float(position - Double(left))
            return left == right ? Tap(indices: [left], weights: [1])
                                 : Tap(indices: [left, right], weights: [1 - fraction, fraction])
        }
    }

    private static func loadPremultipliedRow(_ raw: UnsafeRawBufferPointer, format: PixelFormat, y: Int, width: Int,
                                             maxValue: Float, into row: UnsafeMutableBufferPointer<Float>) {
        switch format {
        case .rgba8:
            let base = y * width * 4
            for x in 0..<width {
                let i = base + x * 4, o = x * 4
                let a = Float(raw[i + 3]), k = a / maxValue
                row[o] = Float(raw[i]) * k; row[o + 1] = Float(raw[i + 1]) * k
                row[o + 2] = Float(raw[i + 2]) * k; row[o + 3] = a
            }
        case .rgba16:
            let samples = raw.assumingMemoryBound(to: UInt16.self)
            let base = y * width * 4
            for x in 0..<width {
                let i = base + x * 4, o = x * 4
                let a = Float(samples[i + 3]), k = a / maxValue
                row[o] = Float(samples[i]) * k; row[o + 1] = Float(samples[i + 1]) * k
                row[o + 2] = Float(samples[i + 2]) * k; row[o + 3] = a
            }
        }
    }

    private static func storeStraightRow(_ line: [Float], into out: UnsafeMutableRawBufferPointer, format: PixelFormat,
                                         y: Int, maxValue: Float) {
        let width = line.count / 4
        func straight(_ value: Float, _ alpha: Float) -> Float {
            alpha <= 0 ? 0 : min(maxValue, max(0, value * maxValue / alpha + 0.5))
        }
        switch format {
        case .rgba8:
            let base = y * width * 4
            for x in 0..<width {
                let i = x * 4, a = line[i + 3]
                out[base + i] = UInt8(straight(line[i], a))
                out[base + i + 1] = UInt8(straight(line[i + 1], a))
                out[base + i + 2] = UInt8(straight(line[i + 2], a))
                out[base + i + 3] = UInt8(min(maxValue, max(0, a + 0.5)))
            }
        case .rgba16:
            let samples = out.assumingMemoryBound(to: UInt16.self)
            let base = y * width * 4
            for x in 0..<width {
                let i = x * 4, a = line[i + 3]
                samples[base + i] = UInt16(straight(line[i], a))
                samples[base + i + 1] = UInt16(straight(line[i + 1], a))
                samples[base + i + 2] = UInt16(straight(line[i + 2], a))
                samples[base + i + 3] = UInt16(min(maxValue, max(0, a + 0.5)))
            }
        }
    }
}
