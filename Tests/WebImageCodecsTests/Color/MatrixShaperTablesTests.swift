import CLCMS2
import Foundation
import Testing
import TestSupport
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

    /// `pixels` (RGBA) through the 8-bit tables for `profile` and through lcms2; nil when no tables are built.
    private static func tablesAndReference(_ profile: Data, _ pixels: [UInt8]) throws -> (tables: [UInt8], lcms2: [UInt8])? {
        try withReference(profile) { handle, reference in
            guard let tables = MatrixShaperTables(profile: handle, reference: reference) else { return nil }
            var converted = pixels, expected = pixels
            converted.withUnsafeMutableBufferPointer { tables.apply(to: $0.baseAddress!, pixelCount: pixels.count / 4) }
            cmsDoTransform(reference, pixels, &expected, cmsUInt32Number(pixels.count / 4))
            return (converted, expected)
        }
    }

    /// 16-bit RGBA `pixels` through the 16-bit tables for `profile`, and lcms2's floating-point conversion of
    /// them on the 16-bit scale (clipped, rounded); nil when no tables are built.
    private static func sixteenBitTablesAndReference(_ profile: Data, _ pixels: [UInt16]) -> (tables: [UInt16], lcms2: [Float])? {
        LittleCMS.withProfile([UInt8](profile)) { handle -> ([UInt16], [Float])? in
            guard let tables = MatrixShaperTables16(profile: handle) else { return nil }
            let count = pixels.count / 4
            var converted = pixels
            converted.withUnsafeMutableBufferPointer { tables.apply(to: $0.baseAddress!, pixelCount: count) }
            let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context)
            defer { cmsCloseProfile(sRGB) }
            guard let reference = cmsCreateTransformTHR(
                LittleCMS.context, handle, LittleCMS.PixelType.rgba16, sRGB, LittleCMS.PixelType.rgbFloat,
                LittleCMS.perceptual, LittleCMS.noCache) else { return nil }
            defer { cmsDeleteTransform(reference) }
            var out = [Float](repeating: 0, count: count * 3)
            cmsDoTransform(reference, pixels, &out, cmsUInt32Number(count))
            return (converted, out.map { (min(1, max(0, $0)) * 65_535).rounded() })
        } ?? nil
    }

    /// The largest colour difference between RGBA pixels and RGB references, and whether alpha is as in `original`.
    private static func compare<Sample: BinaryInteger>(_ rgba: [Sample], _ rgb: [Float], original: [Sample]) -> (worst: Float, alphaKept: Bool) {
        var worst: Float = 0
        for index in 0..<rgb.count / 3 {
            for component in 0..<3 {
                worst = max(worst, abs(Float(rgba[index * 4 + component]) - rgb[index * 3 + component]))
            }
        }
        return (worst, stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == original[$0] })
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
        let (converted, expected) = try #require(try Self.tablesAndReference(profile, grid), "\(name)")
        let worst = zip(converted, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): largest difference \(worst)")
        #expect(stride(from: 3, to: grid.count, by: 4).allSatisfy { converted[$0] == grid[$0] }, "alpha untouched")
    }

    /// 16-bit tables follow lcms2's floating-point conversion (not its 16-bit 3-D table) within a quarter of an
    /// 8-bit level, off the grid they were checked on; alpha kept.
    @Test(arguments: [("Display P3", TestProfiles.displayP3), ("Adobe RGB", TestProfiles.adobeRGB)])
    func sixteenBitTablesMatchLittleCMSInFloatingPoint(name: String, profile: Data) throws {
        var rgba: [UInt16] = []
        for r in stride(from: 0, through: 65_535, by: 3_641) {
            for g in stride(from: 77, through: 65_535, by: 4_099) {
                for b in stride(from: 13, through: 65_535, by: 2_731) { rgba += [UInt16(r), UInt16(g), UInt16(b), UInt16(b ^ r)] }
            }
        }
        let (converted, expected) = try #require(Self.sixteenBitTablesAndReference(profile, rgba), "\(name): tables built")
        let (worst, alphaKept) = Self.compare(converted, expected, original: rgba)
        #expect(worst <= 64, "\(name): largest difference \(worst)")
        #expect(alphaKept, "alpha untouched")
    }

    /// Matrix/TRC profiles with steep curves (x^0.3, gamma 3) and no lookup table keep both tables, within their
    /// bounds on every level of each channel: one level of lcms2's 8-bit transform, a quarter of an 8-bit level
    /// of its floating-point conversion.
    @Test(arguments: [0.3, 3])
    func matrixTRCProfilesKeepTheTablesOnEveryLevel(gamma: Double) throws {
        let profile = LookupTableProfiles.make(gamma: gamma, table: nil)
        let (converted, expected) = try #require(try Self.tablesAndReference(profile, LookupTableProfiles.ramps8))
        let worst = zip(converted, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "gamma \(gamma), 8-bit: largest difference \(worst)")
        let ramps = LookupTableProfiles.ramps16
        let (wide, reference) = try #require(Self.sixteenBitTablesAndReference(profile, ramps))
        let worst16 = Self.compare(wide, reference, original: ramps).worst
        #expect(worst16 <= 64, "gamma \(gamma), 16-bit: largest difference \(worst16)")
    }

    /// A profile with an `A2B0` table converts through the table in lcms2 (perceptual intent), so neither the
    /// 8-bit nor the 16-bit tables are built for it, whatever its matrix/TRC tags.
    @Test(arguments: [("steep Lab table", LookupTableProfiles.steepLab),
                      ("gamma 3 table behind gamma 2.2 tags", LookupTableProfiles.gamma3Table)])
    func profilesWithALookupTableGetNoTables(name: String, profile: Data) throws {
        #expect(try Self.tablesAndReference(profile, [0, 0, 0, 255]) == nil, "\(name): 8-bit")
        #expect(Self.sixteenBitTablesAndReference(profile, [0, 0, 0, 65_535]) == nil, "\(name): 16-bit")
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
