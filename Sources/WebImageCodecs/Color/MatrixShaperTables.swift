import CColorShim
import CLCMS2
import Foundation

/// The tables of ``wi_color_matrix_shaper8_apply`` for one RGB profile, which convert 8-bit pixels to sRGB
/// many times faster than lcms2's own transform (see the `color` benchmark).
///
/// A matrix-shaper profile converts by a curve per channel, one 3 × 3 matrix, and sRGB's curve, so each source
/// channel's effect on linear sRGB is a table of 256 entries. The tables are measured with lcms2 itself (the
/// profile into linear-light sRGB in floating point, one channel at a time), so lcms2 decides how the profile's
/// tags are read; the result is then checked against lcms2's 8-bit transform. Only a profile lcms2 converts
/// through its curves and matrix gets tables: one with a lookup table for the intent (`A2B0`) is left to lcms2,
/// since the table's colours need not be the sum of each channel's.
final class MatrixShaperTables: Sendable {
    /// The red, green and blue tables (256 packed entries each).
    private let packed: [[UInt64]]
    /// The sRGB curve from the smallest sum of the tables to the largest.
    private let encode: [UInt8]

    /// One unit of the tables' sums: 1/16383 of linear light.
    private static let levels = 16_383.0
    private static let fieldBits = Int(WI_COLOR_FIELD_BITS)

    /// Tables for `profile`, or nil when lcms2 does not convert it through curves and a matrix, or when the
    /// tables would differ from `reference` (the profile's 8-bit RGBA → sRGB lcms2 transform) by more than one
    /// level on any of the ``ChannelRamps`` checked.
    init?(profile: cmsHPROFILE, reference: cmsHTRANSFORM) {
        guard LittleCMS.convertsThroughMatrixShaper(profile), let columns = Self.measure(profile) else { return nil }
        // Per source channel and output component, the smallest and largest contribution.
        let floors = columns.map { column in (0..<3).map { component in column.map { $0[component] }.min()! } }
        let ceilings = columns.map { column in (0..<3).map { component in column.map { $0[component] }.max()! } }
        let lowest = (0..<3).map { component in floors.reduce(0) { $0 + $1[component] } }
        let highest = (0..<3).map { component in ceilings.reduce(0) { $0 + $1[component] } }
        let (low, high) = (lowest.min()!, highest.max()!)
        guard high - low < 1 << Self.fieldBits else { return nil }

        encode = (0...(high - low)).map { index in
            let linear = min(1, max(0, Double(index + low) / Self.levels))
            return UInt8((LinearSRGB.encoded(linear) * 255).rounded())
        }
        packed = columns.enumerated().map { channel, column in
            column.map { contribution in
                (0..<3).reduce(UInt64(0)) { entry, component in
                    // Each field is biased to be non-negative; blue's bias also makes every component's sum
                    // start at the encode table's first entry.
                    let shift = channel == 2 ? lowest[component] - low : 0
                    let field = UInt64(contribution[component] - floors[channel][component] + shift)
                    return entry | field << (component * Self.fieldBits)
                }
            }
        }
        guard agrees(with: reference) else { return nil }
    }

    /// Converts `pixelCount` RGBA pixels at `rgba` in place.
    func apply(to rgba: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        packed[0].withUnsafeBufferPointer { red in
            packed[1].withUnsafeBufferPointer { green in
                packed[2].withUnsafeBufferPointer { blue in
                    encode.withUnsafeBufferPointer { encode in
                        var tables = WIColorMatrixShaper8(red: red.baseAddress, green: green.baseAddress,
                                                          blue: blue.baseAddress, encode: encode.baseAddress)
                        wi_color_matrix_shaper8_apply(&tables, rgba, pixelCount)
                    }
                }
            }
        }
    }

    /// For each source channel, its 256 values' (R, G, B) linear sRGB contributions in levels; nil when lcms2
    /// cannot build the probe or a contribution is absurdly large.
    private static func measure(_ profile: cmsHPROFILE) -> [[[Int]]]? {
        guard let measured = LinearSRGB.channelResponses(of: profile, sample: UInt8.self) else { return nil }
        let black = measured[0].prefix(3).map(Double.init)
        var columns: [[[Int]]] = []
        for channel in 0..<3 {
            var column: [[Int]] = []
            for value in 0..<256 {
                var contribution: [Int] = []
                for component in 0..<3 {
                    // Red and green carry only their change from black; blue carries black itself.
                    let offset = channel == 2 ? 0 : black[component]
                    let scaled = ((Double(measured[channel][value * 3 + component]) - offset) * levels).rounded()
                    guard scaled.isFinite, scaled.magnitude < Double(1 << 20) else { return nil }
                    contribution.append(Int(scaled))
                }
                column.append(contribution)
            }
            columns.append(column)
        }
        return columns
    }

    /// Whether the tables match lcms2's 8-bit transform within one level on every level of each channel, the
    /// others at 0, 32, …, 224, 255 (62,208 colours, about a millisecond of lcms2).
    private func agrees(with reference: cmsHTRANSFORM) -> Bool {
        let ramps = ChannelRamps.rgba(levels: Array(0...UInt8.max), others: 9)
        let count = ramps.count / 4
        var expected = ramps, converted = ramps
        cmsDoTransform(reference, ramps, &expected, cmsUInt32Number(count))
        converted.withUnsafeMutableBufferPointer { apply(to: $0.baseAddress!, pixelCount: count) }
        return zip(converted, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
