import CLCMS2
import Foundation

/// sRGB pieces the table-driven conversions share.
enum LinearSRGB {
    /// The sRGB transfer function (IEC 61966-2-1), linear light to encoded, both 0…1.
    static func encoded(_ linear: Double) -> Double {
        linear <= 0.003_130_8 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// sRGB's primaries and white with a straight-line curve, so a transform into it reads linear light.
    static func profile() -> cmsHPROFILE? {
        try? RGBColorSpace(chromaticities: .sRGB, transfer: .gamma(1), name: "linear sRGB").lcmsProfile().get()
    }

    /// What each channel of `profile` does on its own: for channel 0, 1 and 2, the linear sRGB (R, G, B) of every
    /// sample value with the other channels at 0 (`Sample.max + 1` triples), through lcms2 in floating point;
    /// nil when lcms2 cannot build the transform.
    static func channelResponses<Sample: FixedWidthInteger & UnsignedInteger>(of profile: cmsHPROFILE,
                                                                            sample: Sample.Type) -> [[Float]]? {
        guard let linear = Self.profile() else { return nil }
        defer { cmsCloseProfile(linear) }
        let input = Sample.bitWidth == 8 ? LittleCMS.PixelType.rgb8 : LittleCMS.PixelType.rgb16
        guard let transform = cmsCreateTransformTHR(LittleCMS.context, profile, input, linear,
                                                    LittleCMS.PixelType.rgbFloat, LittleCMS.perceptual,
                                                    LittleCMS.noCache) else { return nil }
        defer { cmsDeleteTransform(transform) }
        let levels = Int(Sample.max) + 1
        return (0..<3).map { channel in
            var probe = [Sample](repeating: 0, count: levels * 3)
            for value in 0..<levels { probe[value * 3 + channel] = Sample(value) }
            var out = [Float](repeating: 0, count: levels * 3)
            cmsDoTransform(transform, probe, &out, cmsUInt32Number(levels))
            return out
        }
    }
}
