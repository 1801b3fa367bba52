import CLCMS2
import Foundation
import WebImage

/// The cost of colour management on top of a 12 MP JPEG decode: the same Display P3 JPEG decoded with
/// `colorSpace: .preserve` (TurboJPEG only) and with the default `.sRGB` (libjpeg in bands of rows, each band
/// converted by the profile's cached tables on another core while the next one decodes), in alternating rounds;
/// and an sRGB-tagged JPEG, whose profile is recognised as sRGB and converts nothing. Both process CPU time (all
/// threads: the work) and wall-clock time (what a caller waits) are reported, as medians of the rounds' ratios.
enum ColorBenchmark {
    static let width = 4000, height = 3000

    static func run() throws {
        let photo = photoPixels()
        for (name, profile) in [("Display P3", displayP3()), ("sRGB", lcmsSRGB())] {
            let image = Image(frames: [ImageFrame(pixels: photo)], iccProfile: profile)
            let jpeg = try JPEGCoder().encode(image, as: .jpeg, options: .init(quality: 0.9))
            var buffer = PixelBuffer(width: 1, height: 1)
            let preserve = ImageDecodeOptions(colorSpace: .preserve), convert = ImageDecodeOptions()
            var cpuRatios: [Double] = [], wallRatios: [Double] = [], plainWall: [Double] = []
            _ = try JPEGCoder().decode(jpeg, reusing: &buffer, options: convert)
            for round in 0..<15 {
                let order = round.isMultiple(of: 2) ? [preserve, convert] : [convert, preserve]
                var times: [DecodeColorSpace: (cpu: Double, wall: Double)] = [:]
                for options in order {
                    times[options.colorSpace] = try time { _ = try JPEGCoder().decode(jpeg, reusing: &buffer, options: options) }
                }
                let plain = times[.preserve]!, managed = times[.sRGB]!
                cpuRatios.append(managed.cpu / plain.cpu)
                wallRatios.append(managed.wall / plain.wall)
                plainWall.append(plain.wall)
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            let range = { (values: [Double]) in String(format: "%.2f–%.2f", values.min()!, values.max()!) }
            let overhead = (median(cpuRatios) - 1) * 100
            print(String(format: "decode 12 MP JPEG, %@ profile: sRGB output / as stored: CPU median %.3f× "
                         + "(range %@), wall median %.3f× (range %@), decode alone %.1f ms wall", name,
                         median(cpuRatios), range(cpuRatios), median(wallRatios), range(wallRatios),
                         median(plainWall) * 1000))
            print(String(format: "  conversion overhead %.1f %% of the decode's CPU (target ≤ 15 %%) %@", overhead,
                         overhead <= 15 ? "met" : "NOT MET"))
        }
    }

    /// Process CPU seconds (every thread) and wall-clock seconds of one run.
    private static func time(_ body: () throws -> Void) rethrows -> (cpu: Double, wall: Double) {
        func cpuNow() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let cpuStart = cpuNow(), wallStart = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - wallStart
        return (cpuNow() - cpuStart, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Smooth gradients plus deterministic noise: photo-like work for the entropy coder.
    private static func photoPixels() -> PixelBuffer {
        var state: UInt32 = 12345
        return PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 27) - 16
                    let i = (y * width + x) * 4
                    out[i] = UInt8(clamping: x * 255 / width + noise)
                    out[i + 1] = UInt8(clamping: y * 255 / height - noise)
                    out[i + 2] = UInt8(clamping: (x + y) * 255 / (width + height) + noise / 2)
                    out[i + 3] = 255
                }
            }
        }
    }

    /// Display P3 built with lcms2 from its published primaries and the sRGB curve.
    private static func displayP3() -> Data {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
                                        Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                        Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        defer { cmsFreeToneCurve(curve) }
        var curves = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)
        defer { cmsCloseProfile(profile) }
        return bytes(of: profile)
    }

    private static func lcmsSRGB() -> Data {
        let profile = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(profile) }
        return bytes(of: profile)
    }

    private static func bytes(of profile: cmsHPROFILE?) -> Data {
        var size: cmsUInt32Number = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return Data(bytes)
    }
}
