import Testing
import WebImageCore

/// The streaming resampler gives byte for byte what the two-pass resampler it replaced gave (kept below as
/// the reference), whether fed whole or row by row, for shrinking, enlarging, mixed axes and 16-bit rasters.
@Suite struct RowResamplerTests {
    static let sizePairs: [(from: PixelSize, to: PixelSize)] = [
        (PixelSize(width: 37, height: 23), PixelSize(width: 5, height: 3)),
        (PixelSize(width: 100, height: 100), PixelSize(width: 33, height: 33)),
        (PixelSize(width: 64, height: 48), PixelSize(width: 16, height: 12)),
        (PixelSize(width: 7, height: 9), PixelSize(width: 20, height: 31)),
        (PixelSize(width: 40, height: 10), PixelSize(width: 13, height: 30)),
        (PixelSize(width: 1, height: 50), PixelSize(width: 3, height: 7)),
        (PixelSize(width: 50, height: 1), PixelSize(width: 1, height: 1)),
        (PixelSize(width: 3, height: 3), PixelSize(width: 2, height: 2)),
    ]

    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func matchesTheTwoPassReference(format: PixelFormat) {
        var seed: UInt64 = 7
        for (from, to) in Self.sizePairs {
            let source = Self.noise(from, format: format, seed: &seed)
            let expected = ReferenceResampler.resample(source, to: to)
            #expect(Resampler.resample(source, to: to) == expected, "\(from) → \(to)")

            let resampler = RowResampler(sourceSize: from, targetSize: to, format: format)
            source.withUnsafeBytes { raw in
                for y in 0..<from.height {
                    #expect(resampler.nextRow == y && !resampler.isComplete)
                    resampler.consume(UnsafeRawBufferPointer(rebasing: raw[y * source.bytesPerRow ..< (y + 1) * source.bytesPerRow]))
                }
            }
            #expect(resampler.isComplete)
            #expect(resampler.finish() == expected, "\(from) → \(to) row by row")
        }
    }

    /// Resampling memory someone else owns gives the same as resampling a buffer of the same bytes.
    @Test func rawRasterMatchesTheBuffer() {
        var seed: UInt64 = 11
        let source = Self.noise(PixelSize(width: 30, height: 20), format: .rgba8, seed: &seed)
        let fromRaw = source.withUnsafeBytes {
            Resampler.resample($0, size: source.size, format: .rgba8, to: PixelSize(width: 7, height: 4))
        }
        #expect(fromRaw == Resampler.resample(source, to: PixelSize(width: 7, height: 4)))
    }

    /// Pseudo-random pixels with every alpha value, so premultiplication matters.
    static func noise(_ size: PixelSize, format: PixelFormat, seed: inout UInt64) -> PixelBuffer {
        PixelBuffer(width: size.width, height: size.height, format: format) { out in
            for i in 0..<out.count {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                out[i] = UInt8(truncatingIfNeeded: seed >> 33)
            }
        }
    }
}

/// The resampler as it was before rows could stream: a horizontal pass over the whole raster into floats,
/// then a vertical pass. Kept as the reference the streaming one must reproduce exactly.
enum ReferenceResampler {
    static func resample(_ source: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        let maxValue: Float = source.format == .rgba8 ? 255 : 65535
        let xTaps = taps(from: source.width, to: size.width), yTaps = taps(from: source.height, to: size.height)
        var horizontal = [Float](repeating: 0, count: size.width * source.height * 4)
        var row = [Float](repeating: 0, count: source.width * 4)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let samples = sample(source, x: x, y: y), a = samples[3], k = a / maxValue
                row[x * 4] = samples[0] * k; row[x * 4 + 1] = samples[1] * k
                row[x * 4 + 2] = samples[2] * k; row[x * 4 + 3] = a
            }
            for (ox, tap) in xTaps.enumerated() {
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                for (index, weight) in zip(tap.indices, tap.weights) {
                    let i = index * 4
                    r += row[i] * weight; g += row[i + 1] * weight
                    b += row[i + 2] * weight; a += row[i + 3] * weight
                }
                let o = (y * size.width + ox) * 4
                horizontal[o] = r; horizontal[o + 1] = g; horizontal[o + 2] = b; horizontal[o + 3] = a
            }
        }
        // Unpremultiplied by one factor a pixel, 1 when opaque.
        func straight(_ value: Float, _ alpha: Float) -> Float {
            min(maxValue, max(0, value * (alpha >= maxValue ? 1 : alpha > 0 ? maxValue / alpha : 0) + 0.5))
        }
        var out: [UInt16] = []
        for tap in yTaps {
            var line = [Float](repeating: 0, count: size.width * 4)
            for (index, weight) in zip(tap.indices, tap.weights) {
                for i in 0..<line.count { line[i] += horizontal[index * size.width * 4 + i] * weight }
            }
            for x in 0..<size.width {
                let i = x * 4, a = line[i + 3]
                out += [UInt16(straight(line[i], a)), UInt16(straight(line[i + 1], a)), UInt16(straight(line[i + 2], a)),
                        UInt16(min(maxValue, max(0, a + 0.5)))]
            }
        }
        return PixelBuffer(width: size.width, height: size.height, format: source.format) { raw in
            for (i, value) in out.enumerated() {
                if source.format == .rgba8 {
                    raw[i] = UInt8(value)
                } else {
                    raw.storeBytes(of: value, toByteOffset: i * 2, as: UInt16.self)
                }
            }
        }
    }

    private static func sample(_ buffer: PixelBuffer, x: Int, y: Int) -> [Float] {
        buffer.withUnsafeBytes { raw in
            let base = (y * buffer.width + x) * 4
            return (0..<4).map { c in
                buffer.format == .rgba8 ? Float(raw[base + c])
                    : Float(raw.loadUnaligned(fromByteOffset: (base + c) * 2, as: UInt16.self))
            }
        }
    }

    private static func taps(from source: Int, to destination: Int) -> [(indices: [Int], weights: [Float])] {
        let scale = Double(source) / Double(destination)
        return (0..<destination).map { d in
            if scale >= 1 {
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
                return (indices, weights)
            }
            let position = min(max((Double(d) + 0.5) * scale - 0.5, 0), Double(source - 1))
            let left = Int(position.rounded(.down)), right = min(left + 1, source - 1)
            let fraction = Float(position - Double(left))
            return left == right ? ([left], [1]) : ([left, right], [1 - fraction, fraction])
        }
    }
}
