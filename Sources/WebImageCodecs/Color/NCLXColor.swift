import Synchronization
import WebImageCore

/// Colour described by ITU-T H.273 code points, as an `nclx` `colr` box (or an AV1 sequence header) gives it,
/// and the ICC profile the pixels are converted from.
///
/// Matrix coefficients and range are not here: libavif and libheif apply them when they turn YCbCr into RGB.
/// A code point this table does not know (or 2, unspecified) counts as sRGB's for that component, and SDR
/// transfer curves written for video (BT.709, BT.601, BT.2020: 1, 6, 14, 15) are displayed with the sRGB curve,
/// as Chromium does, since encoders write them for sRGB content; so 1/13, 1/1 or 2/2 convert nothing.
struct NCLXColor: Hashable, Sendable {
    var primaries: UInt16
    var transfer: UInt16

    /// The profile to convert from: nil when the colour is sRGB.
    var profile: Result<[UInt8]?, ColorProfileFailure> {
        let chromaticities = Self.chromaticities[primaries]
        let curve = Self.curves[transfer]
        guard chromaticities != nil || curve != nil else { return .success(nil) }
        let key = NCLXColor(primaries: chromaticities == nil ? 1 : primaries, transfer: curve == nil ? 13 : transfer)
        if let made = Self.made.withLock({ $0[key] }) { return made.map { $0 } }
        let name = "\(chromaticities?.name ?? "sRGB"), \(curve?.name ?? "sRGB curve")"
            + " (nclx \(key.primaries)/\(key.transfer))"
        let space = RGBColorSpace(chromaticities: chromaticities?.value ?? .sRGB, transfer: curve?.value ?? .sRGB,
                                  name: name)
        let profile = space.iccProfile()
        Self.made.withLock { $0[key] = profile }
        return profile.map { $0 }
    }

    /// Converts `pixels` to sRGB or attaches ``profile``, per the options. PQ and HLG convert in two steps:
    /// the samples are re-encoded from the HDR curve to the sRGB curve (``HDRToSDR/reencode(_:curve:)``), then
    /// converted from the primaries with the sRGB curve. lcms2 converts 16-bit pixels through a sampled 3-D
    /// table that cannot follow the clip at reference white (8 levels off on `colors_hdr_p3.avif`, measured);
    /// a table per sample value follows it exactly.
    func manage(_ pixels: inout PixelBuffer, options: ImageDecodeOptions) -> ColorManagement.Outcome {
        let curve = Self.curves[transfer]?.value
        guard options.colorSpace == .sRGB, let curve, curve == .pq || curve == .hlg else {
            return ColorManagement.manage(&pixels, built: profile, options: options)
        }
        HDRToSDR.reencode(&pixels, curve: curve)
        return ColorManagement.manage(&pixels, built: NCLXColor(primaries: primaries, transfer: 13).profile,
                                      options: options)
    }

    /// Profiles built so far, one per supported primaries × transfer pair (a bounded set).
    private static let made = Mutex<[NCLXColor: Result<[UInt8], ColorProfileFailure>]>([:])

    /// H.273 table 2 (ColourPrimaries) for the spaces that are not sRGB's.
    static let chromaticities: [UInt16: (name: String, value: Chromaticities)] = [
        4: ("BT.470 System M",
            Chromaticities(white: illuminantC, red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08))),
        5: ("BT.470 System B/G",
            Chromaticities(white: Chromaticities.d65, red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06))),
        6: ("BT.601 525", bt601),
        7: ("SMPTE 240M", bt601),
        8: ("Generic film",
            Chromaticities(white: illuminantC, red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049))),
        9: ("BT.2020",
            Chromaticities(white: Chromaticities.d65, red: (0.708, 0.292), green: (0.170, 0.797),
                           blue: (0.131, 0.046))),
        11: ("DCI-P3", Chromaticities(white: (0.314, 0.351), red: p3.red, green: p3.green, blue: p3.blue)),
        12: ("P3-D65", Chromaticities(white: Chromaticities.d65, red: p3.red, green: p3.green, blue: p3.blue)),
        22: ("EBU Tech 3213-E",
             Chromaticities(white: Chromaticities.d65, red: (0.630, 0.340), green: (0.295, 0.605),
                            blue: (0.155, 0.077))),
    ]

    private static let illuminantC = (0.310, 0.316)
    private static let bt601 = Chromaticities(white: Chromaticities.d65, red: (0.630, 0.340), green: (0.310, 0.595),
                                              blue: (0.155, 0.070))
    private static let p3 = (red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))

    /// H.273 table 3 (TransferCharacteristics) for the curves that are not displayed as sRGB.
    static let curves: [UInt16: (name: String, value: TransferCurve)] = [
        4: ("gamma 2.2", .gamma(2.2)),
        5: ("gamma 2.8", .gamma(2.8)),
        8: ("linear", .gamma(1)),
        16: ("PQ with 203 cd/m2 as white", .pq),
        18: ("HLG at 1000 cd/m2 with 203 cd/m2 as white", .hlg),
    ]
}
