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
