import CColorShim
import CLCMS2
import Foundation

/// The 16-bit counterpart of ``MatrixShaperTables``: each source channel's curve as 65,536 linear-light values,
/// the 3 × 3 matrix into linear sRGB, and sRGB's curve over 65,536 levels (see ``wi_color_matrix_shaper16_apply``).
///
/// lcms2's own 16-bit transform samples the whole conversion into a 3-D table, which can be several levels off
/// where a curve is steep; these tables follow the profile's curves sample by sample. They are measured with an
/// lcms2 floating-point transform and checked against another (the profile into sRGB itself). Only a profile
/// lcms2 converts through its curves and matrix gets them (not one with an `A2B0` table), and only when every
/// sample of each channel moves linear sRGB along one line.
final class MatrixShaperTables16: Sendable {
    /// Each channel's curve.
    private let linear: [[Float]]
    /// Rows: linear sRGB components.
    private let matrix: [[Float]]
    private let black: [Float]

    /// sRGB's curve: the 16-bit sample for each linear level (the same for every profile).
    private static let encode: [UInt16] = (0..<65_536).map {
        UInt16((LinearSRGB.encoded(Double($0) / 65_535) * 65_535).rounded())
    }

    /// Tables for `profile`, or nil when it is not curves and a matrix, or when the result differs from
    /// lcms2's floating-point conversion by more than a quarter of an 8-bit level on any of the ``ChannelRamps``
    /// checked.
    init?(profile: cmsHPROFILE) {
        guard LittleCMS.convertsThroughMatrixShaper(profile), let (linear, matrix, black) = Self.measure(profile) else {
            return nil
        }
        (self.linear, self.matrix, self.black) = (linear, matrix, black)
        guard agrees(with: profile) else { return nil }
    }

    /// Converts `pixelCount` 16-bit RGBA pixels at `rgba` in place.
    func apply(to rgba: UnsafeMutablePointer<UInt16>, pixelCount: Int) {
        linear[0].withUnsafeBufferPointer { red in
            linear[1].withUnsafeBufferPointer { green in
                linear[2].withUnsafeBufferPointer { blue in
                    Self.encode.withUnsafeBufferPointer { encode in
                        var tables = WIColorMatrixShaper16(
                            linear: (red.baseAddress, green.baseAddress, blue.baseAddress),
                            matrix: ((matrix[0][0], matrix[0][1], matrix[0][2]),
                                     (matrix[1][0], matrix[1][1], matrix[1][2]),
                                     (matrix[2][0], matrix[2][1], matrix[2][2])),
                            black: (black[0], black[1], black[2]), encode: encode.baseAddress)
                        wi_color_matrix_shaper16_apply(&tables, rgba, pixelCount)
                    }
                }
            }
        }
    }

    /// Each channel's curve, the matrix (rows: linear sRGB components) and black, or nil when the profile's
    /// channels do not each move linear sRGB along one fixed direction (not a matrix-shaper).
    private static func measure(_ profile: cmsHPROFILE) -> (linear: [[Float]], matrix: [[Float]], black: [Float])? {
        guard let measured = LinearSRGB.channelResponses(of: profile, sample: UInt16.self) else { return nil }
        let black = Array(measured[0].prefix(3))
        var columns: [[Float]] = [], curves: [[Float]] = []
        for channel in 0..<3 {
            let samples = measured[channel]
            // The channel's direction in linear sRGB: its full-scale change from black.
            let column = (0..<3).map { samples[65_535 * 3 + $0] - black[$0] }
            let norm = column.reduce(0) { $0 + $1 * $1 }
            guard norm > 1e-6 else { return nil }
            var curve = [Float](repeating: 0, count: 65_536)
            for value in 0..<65_536 {
                let change = (samples[value * 3] - black[0], samples[value * 3 + 1] - black[1],
                              samples[value * 3 + 2] - black[2])
                let amount = (change.0 * column[0] + change.1 * column[1] + change.2 * column[2]) / norm
                // Off that direction by more than a tiny fraction: not a matrix-shaper.
                guard abs(change.0 - column[0] * amount) <= 1e-4, abs(change.1 - column[1] * amount) <= 1e-4,
                      abs(change.2 - column[2] * amount) <= 1e-4 else { return nil }
                curve[value] = amount
            }
            columns.append(column)
            curves.append(curve)
        }
        let matrix = (0..<3).map { row in (0..<3).map { columns[$0][row] } }
        return (curves, matrix, black)
    }

    /// Whether the tables match lcms2's floating-point profile → sRGB conversion within 64 (a quarter of an
    /// 8-bit level) on every 8-bit level's sample of each channel, the others at 0, half and full scale.
    /// (``measure(_:)`` has already seen every sample of each channel on its own; lcms2's floating point is
    /// slow enough that a larger grid would cost more than the measuring.)
    private func agrees(with profile: cmsHPROFILE) -> Bool {
        guard let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context) else { return false }
        defer { cmsCloseProfile(sRGB) }
        guard let reference = cmsCreateTransformTHR(LittleCMS.context, profile, LittleCMS.PixelType.rgba16, sRGB,
                                                    LittleCMS.PixelType.rgbFloat, LittleCMS.perceptual,
                                                    LittleCMS.noCache) else { return false }
        defer { cmsDeleteTransform(reference) }
        var rgba = ChannelRamps.rgba(levels: (0...255).map { UInt16($0 * 257) }, others: 3)
        let count = rgba.count / 4
        var expected = [Float](repeating: 0, count: count * 3)
        cmsDoTransform(reference, rgba, &expected, cmsUInt32Number(count))
        rgba.withUnsafeMutableBufferPointer { apply(to: $0.baseAddress!, pixelCount: count) }
        return (0..<count).allSatisfy { index in
            (0..<3).allSatisfy { component in
                let want = (min(1, max(0, expected[index * 3 + component])) * 65_535).rounded()
                return abs(Float(rgba[index * 4 + component]) - want) <= 64
            }
        }
    }
}
