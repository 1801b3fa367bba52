import CLCMS2
import Foundation

/// ICC profiles made with lcms2 from published primaries, as `cmsCreateRGBProfile` builds them: the colour
/// tests' and the service's `strip_color_profile` tests'.
public enum TestProfiles {
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB transfer curve.
    public static let displayP3 = make(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060)) {
        var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, &parameters)
    }

    /// Adobe RGB (1998): its primaries, D65 white, gamma 563/256.
    public static let adobeRGB = make(red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06)) {
        cmsBuildGamma(nil, 563.0 / 256.0)
    }

    /// lcms2's built-in sRGB profile.
    public static let sRGB: Data = {
        let profile = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(profile) }
        return bytes(of: profile)
    }()

    /// The 557 KB Adobe CMYK profile inside the corpus's `cmyk_layers.jxl`, written out by djxl.
    public static func adobeCMYK() throws -> [UInt8] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-\(UUID().uuidString)")
        let output = base.appendingPathExtension("icc"), png = base.appendingPathExtension("png")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: png)
        }
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/djxl"),
                                         [TestCorpus.path("jxl/cmyk_layers.jxl"), png.path, "--icc_out=\(output.path)"])
        process.waitUntilExit()
        return [UInt8](try Data(contentsOf: output))
    }

    /// Twelve test colours.
    public static let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0],
                                    [128, 128, 128], [200, 100, 50], [30, 180, 220], [250, 240, 10], [90, 20, 160],
                                    [12, 200, 90], [240, 128, 200]]

    /// The colours above converted to sRGB by Pillow 13's ImageCms (lcms2 2.19), perceptual intent, from the
    /// same profiles (written by the same lcms2 calls in C): computed once, stored here.
    public static let pillowP3ToSRGB: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0],
                                            [128, 128, 128], [215, 93, 31], [0, 183, 225], [252, 240, 0],
                                            [99, 10, 166], [0, 204, 73], [255, 120, 203]]
    public static let pillowAdobeToSRGB: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0],
                                               [129, 129, 129], [227, 100, 42], [0, 181, 222], [254, 240, 0],
                                               [105, 12, 165], [0, 201, 80], [255, 129, 204]]

    /// The test colours as a 12 × 1 RGBA raster, alpha varying so that it can be checked untouched.
    public static var raster: [UInt8] {
        colors.enumerated().flatMap { index, rgb in rgb + [UInt8(255 - index * 20)] }
    }

    private static func make(red: (Double, Double), green: (Double, Double), blue: (Double, Double),
                             curve: () -> OpaquePointer?) -> Data {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: red.0, y: red.1, Y: 1),
                                        Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
                                        Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        let tone = curve()
        defer { cmsFreeToneCurve(tone) }
        var curves = [tone, tone, tone]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)
        defer { cmsCloseProfile(profile) }
        return bytes(of: profile)
    }

    public static func bytes(of profile: cmsHPROFILE?) -> Data {
        var size: cmsUInt32Number = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return Data(bytes)
    }
}
