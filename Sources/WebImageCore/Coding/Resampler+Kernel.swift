import Foundation

extension Resampler {
    /// The filter a resample weighs source pixels with: the area filter, or one of the kernels of libvips'
    /// `vips_resize` (imgproxy's `resizing_algorithm`), named as imgproxy names them.
    ///
    /// When an axis shrinks, a libvips kernel is stretched by the scale factor (its radius times the factor in
    /// source pixels) and centred on `(d + 0.5) · scale − 0.5`, as `vips_reduceh`/`vips_reducev` do; when it
    /// grows, libvips' interpolator samples `d · scale − 0.5` (`vips_affine` with an input offset of 0.5; `scale`
    /// is source over target). Pixels past the edges repeat the edge pixel. Lanczos and cubic overshoot near
    /// sharp edges; the results are clamped, and colour never exceeds alpha.
    ///
    /// ```swift
    /// let thumbnail = Resampler.resample(photo, to: PixelSize(width: 500, height: 333), kernel: .lanczos3)
    /// ```
    public enum Kernel: String, Sendable, Hashable, CaseIterable {
        /// Area (box) averaging when shrinking, bilinear interpolation between pixel centres when enlarging.
        case area
        /// One source pixel each: `floor((d + 0.5) · scale)` when shrinking, `floor(d · scale)` when enlarging.
        case nearest
        /// A triangle (tent) filter when shrinking, bilinear interpolation when enlarging.
        case linear
        /// Catmull-Rom (Mitchell–Netravali B = 0, C = ½), radius 2.
        case cubic
        /// Lanczos with 2 lobes when shrinking; Catmull-Rom when enlarging, as libvips enlarges.
        case lanczos2
        /// Lanczos with 3 lobes when shrinking (libvips' default kernel); Catmull-Rom when enlarging.
        case lanczos3
    }

    static func taps(from source: Int, to destination: Int, kernel: Kernel) -> [Tap] {
        switch kernel {
        case .area: areaTaps(from: source, to: destination)
        case .nearest: nearestTaps(from: source, to: destination)
        case .linear: filterTaps(from: source, to: destination, shrinking: .triangle, enlarging: .triangle)
        case .cubic: filterTaps(from: source, to: destination, shrinking: .catmullRom, enlarging: .catmullRom)
        case .lanczos2: filterTaps(from: source, to: destination, shrinking: .lanczos(2), enlarging: .catmullRom)
        case .lanczos3: filterTaps(from: source, to: destination, shrinking: .lanczos(3), enlarging: .catmullRom)
        }
    }

    /// libvips' nearest: `vips_reduce` reads `floor((d + 0.5) · scale)`, the enlarging `vips_affine` (no input
    /// offset) `floor(d · scale)`; worked in integers so ties fall the same on every platform.
    private static func nearestTaps(from source: Int, to destination: Int) -> [Tap] {
        (0..<destination).map { d in
            let s = source > destination ? (2 * d + 1) * source / (2 * destination) : d * source / destination
            return Tap(indices: [min(s, source - 1)], weights: [1])
        }
    }

    /// Every source sample strictly within the filter's support of the destination sample's centre, weighed by
    /// the filter and normalised to sum 1; indices past an edge clamp to it (libvips extends edges by copying),
    /// their weights merged, so indices stay ascending and unique.
    private static func filterTaps(from source: Int, to destination: Int,
                                   shrinking: Filter, enlarging: Filter) -> [Tap] {
        // libvips leaves an axis of the same size alone (a lanczos window at scale 1 would not be exactly 1).
        if source == destination { return (0..<source).map { Tap(indices: [$0], weights: [1]) } }
        let scale = Double(source) / Double(destination), shrinks = source > destination
        let filter = shrinks ? shrinking : enlarging, stretch = shrinks ? scale : 1
        let support = filter.radius * stretch
        return (0..<destination).map { d in
            let centre = shrinks ? (Double(d) + 0.5) * scale - 0.5 : Double(d) * scale - 0.5
            var indices: [Int] = [], weights: [Double] = [], total = 0.0
            for s in Int((centre - support).rounded(.up))...Int((centre + support).rounded(.down))
            where abs(Double(s) - centre) < support {
                let weight = filter.value(at: (Double(s) - centre) / stretch), index = min(max(s, 0), source - 1)
                if indices.last == index { weights[weights.count - 1] += weight } else {
                    indices.append(index)
                    weights.append(weight)
                }
                total += weight
            }
            return Tap(indices: indices, weights: weights.map { Float($0 / total) })
        }
    }

    /// A continuous kernel as libvips defines it (`libvips/resample/templates.h`).
    private enum Filter {
        case triangle
        case catmullRom
        case lanczos(Double)

        /// How far from its centre the kernel is non-zero, in source pixels at scale 1.
        var radius: Double {
            switch self {
            case .triangle: 1
            case .catmullRom: 2
            case .lanczos(let lobes): lobes
            }
        }

        func value(at x: Double) -> Double {
            let x = abs(x)
            switch self {
            case .triangle:
                return max(0, 1 - x)
            case .catmullRom:
                return x <= 1 ? (1.5 * x - 2.5) * x * x + 1 : x < 2 ? ((-0.5 * x + 2.5) * x - 4) * x + 2 : 0
            case .lanczos(let lobes):
                return x <= lobes ? Self.sinc(x) * Self.sinc(x / lobes) : 0
            }
        }

        private static func sinc(_ x: Double) -> Double {
            x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
        }
    }
}
