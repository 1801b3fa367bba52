import CLCMS2
import Foundation
import Testing
@testable import WebImageCodecs

/// The table-driven 8-bit conversion for matrix-shaper profiles gives lcms2's own results.
@Suite struct MatrixShaperTablesTests {
    /// lcms2's 8-bit RGBA transform from `profile` to sRGB, as the colour code builds it.
    private static func withReference<R>(_ profile: Data, _ body: (cmsHPROFILE, cmsHTRANSFORM) throws -> R) throws -> R {
        let result = try LittleCMS.withProfile([UInt8](profile)) { handle -> R in
            let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context)
            defer { cmsCloseProfile(sRGB) }
            let built = cmsCreateTransformTHR(LittleCMS.context, handle, LittleCMS.PixelType.rgba8, sRGB,
                                              LittleCMS.PixelType.rgba8, LittleCMS.perceptual,
                                              LittleCMS.sharedTransformFlags)
            let transform = try #require(built)
            defer { cmsDeleteTransform(transform) }
            return try body(handle, transform)
        }
        return try #require(result)
    }

    /// Every third level of each channel (86³ colours, alpha varying) against lcms2: within one level, alpha kept.
    @Test(arguments: [("Display P3", TestProfiles.displayP3), ("Adobe RGB", TestProfiles.adobeRGB)])
    func matchesLittleCMSWithinOneLevel(name: String, profile: Data) throws {
        var grid: [UInt8] = []
        for r in stride(from: 0, through: 255, by: 3) {
            for g in stride(from: 0, through: 255, by: 3) {
                for b in stride(from: 0, through: 255, by: 3) { grid += [UInt8(r), UInt8(g), UInt8(b), UInt8((r + b) & 0xFF)] }
            }
        }
        let count = grid.count / 4
        let (converted, expected) = try Self.withReference(profile) { handle, reference in
            let tables = try #require(MatrixShaperTables(profile: handle, reference: reference), "\(name)")
            var converted = grid, expected = grid
            converted.withUnsafeMutableBufferPointer { tables.apply(to: $0.baseAddress!, pixelCount: count) }
            cmsDoTransform(reference, grid, &expected, cmsUInt32Number(count))
            return (converted, expected)
        }
        let worst = zip(converted, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): largest difference \(worst)")
        #expect(stride(from: 3, to: grid.count, by: 4).allSatisfy { converted[$0] == grid[$0] }, "alpha untouched")
    }

    /// 16-bit tables follow lcms2's floating-point conversion (not its 16-bit 3-D table) within a quarter of an
    /// 8-bit level, off the grid they were checked on; alpha kept.
    @Test(arguments: [("Display P3", TestProfiles.displayP3), ("Adobe RGB", TestProfiles.adobeRGB)])
    func sixteenBitTablesMatchLittleCMSInFloatingPoint(name: String, profile: Data) throws {
        var rgb: [UInt16] = [], rgba: [UInt16] = []
        for r in stride(from: 0, through: 65_535, by: 3_641) {
            for g in stride(from: 77, through: 65_535, by: 4_099) {
                for b in stride(from: 13, through: 65_535, by: 2_731) {
                    rgb += [UInt16(r), UInt16(g), UInt16(b)]
                    rgba += [UInt16(r), UInt16(g), UInt16(b), UInt16(b ^ r)]
                }
            }
        }
        let count = rgb.count / 3, original = rgba
        let expected = try #require(LittleCMS.withProfile([UInt8](profile)) { handle -> [Float]? in
            let tables = MatrixShaperTables16(profile: handle)
            rgba.withUnsafeMutableBufferPointer { tables?.apply(to: $0.baseAddress!, pixelCount: count) }
            let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context)
            defer { cmsCloseProfile(sRGB) }
            guard tables != nil, let reference = cmsCreateTransformTHR(
                LittleCMS.context, handle, LittleCMS.PixelType.rgb16, sRGB, LittleCMS.PixelType.rgbFloat,
                LittleCMS.perceptual, LittleCMS.noCache) else { return nil }
            defer { cmsDeleteTransform(reference) }
            var out = [Float](repeating: 0, count: rgb.count)
            cmsDoTransform(reference, rgb, &out, cmsUInt32Number(count))
            return out
        } ?? nil, "\(name): tables built")
        var worst: Float = 0
        for index in 0..<count {
            for component in 0..<3 {
                let want = (min(1, max(0, expected[index * 3 + component])) * 65_535).rounded()
                worst = max(worst, abs(Float(rgba[index * 4 + component]) - want))
            }
            #expect(rgba[index * 4 + 3] == original[index * 4 + 3], "alpha untouched")
        }
        #expect(worst <= 64, "\(name): largest difference \(worst)")
    }

    /// Tables that do not reproduce the reference transform are refused, so such a profile stays with lcms2.
    @Test func tablesThatDisagreeWithTheReferenceAreRefused() throws {
        let refused = try Self.withReference(TestProfiles.adobeRGB) { _, adobeTransform in
            LittleCMS.withProfile([UInt8](TestProfiles.displayP3)) { p3 in
                MatrixShaperTables(profile: p3, reference: adobeTransform) == nil
            }
        }
        #expect(refused == true)
    }
}
