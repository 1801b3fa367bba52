import CLCMS2
import Foundation
import Testing
@testable import WebImageCodecs
import WebImage

/// A profile with an `A2B0` lookup table converts as lcms2 converts it (through the table, perceptual intent),
/// on every level of each channel, whatever its matrix/TRC tags say.
@Suite struct LookupTableProfileTests {
    private static let profiles = [("steep Lab table", LookupTableProfiles.steepLab),
                                   ("gamma 3 table behind gamma 2.2 tags", LookupTableProfiles.gamma3Table)]

    /// lcms2's own transform of `pixels` (RGBA, `type`) from `profile` to sRGB, as the decoders build it.
    private static func littleCMS<Sample: FixedWidthInteger>(_ profile: Data, _ pixels: [Sample], type: UInt32) throws -> [Sample] {
        let converted = LittleCMS.withProfile([UInt8](profile)) { handle -> [Sample]? in
            let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context)
            defer { cmsCloseProfile(sRGB) }
            guard let transform = cmsCreateTransformTHR(LittleCMS.context, handle, type, sRGB, type,
                                                        LittleCMS.perceptual, LittleCMS.sharedTransformFlags) else {
                return nil
            }
            defer { cmsDeleteTransform(transform) }
            var out = pixels
            pixels.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { cmsDoTransform(transform, input.baseAddress, $0.baseAddress,
                                                            cmsUInt32Number(pixels.count / 4)) }
            }
            return out
        }
        return try #require(converted ?? nil)
    }

    /// A PNG carrying the profile decodes to lcms2's 8-bit result within one level.
    @Test(arguments: profiles)
    func eightBitDecodeFollowsTheTable(name: String, profile: Data) throws {
        let ramps = LookupTableProfiles.ramps8
        let image = Image(frames: [ImageFrame(pixels: PixelBuffer(width: 256, height: ramps.count / 1024, bytes: ramps))],
                          iccProfile: profile)
        let data = try CodersManager.shared.encode(image, as: .png, options: .init())
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.colorProfileIssue == nil)
        let expected = try Self.littleCMS(profile, ramps, type: LittleCMS.PixelType.rgba8)
        let worst = zip(decoded.pixels.bytes, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): largest difference \(worst)")
    }

    /// 16-bit pixels convert to lcms2's 16-bit result within one 16-bit level.
    @Test(arguments: profiles)
    func sixteenBitConversionFollowsTheTable(name: String, profile: Data) throws {
        let ramps = LookupTableProfiles.ramps16
        let conversion = try ColorConversion(profile: [UInt8](profile), layout: .rgba(.rgba16))
        var converted = ramps
        converted.withUnsafeMutableBytes { conversion.apply(to: $0, pixelCount: ramps.count / 4) }
        let expected = try Self.littleCMS(profile, ramps, type: LittleCMS.PixelType.rgba16)
        let worst = zip(converted, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): largest difference \(worst)")
    }
}
