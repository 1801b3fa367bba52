import Foundation
import WebImageCore

/// How HDR samples are brought into SDR's 0…1 range, since lcms2 has no tone mapping: the transfer function
/// gives absolute luminance, SDR reference white (ITU-R BT.2408: 203 cd/m²) becomes 1.0, and everything
/// brighter clips to white, channel by channel.
enum HDRToSDR {
    /// The luminance that becomes SDR white, in cd/m² (ITU-R BT.2408's HDR reference white).
    static let referenceWhite = 203.0
    /// The display peak HLG is rendered for, in cd/m² (BT.2100's reference; its system gamma is then 1.2).
    static let hlgNominalPeak = 1000.0
    static let hlgSystemGamma = 1.2

    /// Samples in the tabulated tone curves lcms2 interpolates between.
    static let tableSize = 4096

    /// Re-encodes the RGB samples of `pixels` (alpha untouched) from `curve` (``TransferCurve/pq`` or
    /// ``TransferCurve/hlg``) to the sRGB curve: the same light after the mapping into SDR.
    static func reencode(_ pixels: inout PixelBuffer, curve: TransferCurve) {
        let tables = curve == .pq ? pqTables : hlgTables
        let wide = pixels.format == .rgba16
        pixels.withUnsafeMutableBytes { raw in
            if wide {
                let samples = raw.bindMemory(to: UInt16.self)
                for pixel in stride(from: 0, to: samples.count, by: 4) {
                    for channel in pixel..<pixel + 3 { samples[channel] = tables.sixteen[Int(samples[channel])] }
                }
            } else {
                for pixel in stride(from: 0, to: raw.count, by: 4) {
                    for channel in pixel..<pixel + 3 { raw[channel] = tables.eight[Int(raw[channel])] }
                }
            }
        }
    }

    /// Each 8-bit and 16-bit sample value's sRGB-encoded equivalent.
    private struct Tables {
        let eight: [UInt8]
        let sixteen: [UInt16]

        init(_ linear: (Double) -> Double) {
            eight = (0...255).map { UInt8((LinearSRGB.encoded(linear(Double($0) / 255)) * 255).rounded()) }
            sixteen = (0...65535).map { UInt16((LinearSRGB.encoded(linear(Double($0) / 65535)) * 65535).rounded()) }
        }
    }

    private static let pqTables = Tables(pq)
    private static let hlgTables = Tables(hlg)

    /// Relative linear light (0…1, clipped) for a PQ (SMPTE ST 2084) signal in 0…1.
    static func pq(_ signal: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let power = pow(max(0, signal), 1 / m2)
        let luminance = 10000 * pow(max(0, power - c1) / (c2 - c3 * power), 1 / m1)
        return min(1, luminance / referenceWhite)
    }

    /// Relative linear light (0…1, clipped) for an HLG (ARIB STD-B67) signal in 0…1: the inverse OETF gives
    /// scene light, BT.2100's OOTF for a 1000 cd/m² display raises it to the system gamma (applied to each
    /// channel, which equals the luminance-based OOTF on greys), so a 75 % signal lands at about 203 cd/m².
    static func hlg(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let value = max(0, signal)
        let scene = value <= 0.5 ? value * value / 3 : (exp((value - c) / a) + b) / 12
        return min(1, hlgNominalPeak * pow(scene, hlgSystemGamma) / referenceWhite)
    }
}
