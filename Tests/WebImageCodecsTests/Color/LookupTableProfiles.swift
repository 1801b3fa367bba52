import CLCMS2
import Foundation
import TestSupport

/// RGB profiles made with lcms2 that carry matrix/TRC tags (sRGB's primaries, D65, one gamma curve) and, unless
/// asked otherwise, an `A2B0` lookup table as well. For the perceptual intent lcms2, skcms and ColorSync convert
/// through `A2B0`, so the table decides the colours.
enum LookupTableProfiles {
    /// What the `A2B0` table holds.
    enum Table {
        /// The tags' own colours as Lab (the profile's PCS becomes Lab) at 33 × 33 × 33 nodes, the curve
        /// inside the table. Lab is not linear light, so between nodes a colour is not the sum of its channels'.
        case lab
        /// Gamma-3 curves and the tags' matrix, no grid: curves and a matrix, but another curve than the tags'.
        case gamma3Matrix
    }

    /// Curve x^0.3, steep in the shadows (level 1 is already 19 % linear light), and a Lab `A2B0`.
    static let steepLab = make(gamma: 0.3, table: .lab)
    /// Gamma 2.2 tags, and an `A2B0` of gamma-3 curves and the matrix.
    static let gamma3Table = make(gamma: 2.2, table: .gamma3Matrix)

    /// The profile with `gamma` tags and `table` (none: a plain matrix/TRC profile).
    static func make(gamma: Double, table: Table?) -> Data {
        let profile = rgbProfile(gamma: gamma)
        defer { cmsCloseProfile(profile) }
        if let table {
            let pipeline = cmsPipelineAlloc(nil, 3, 3)
            defer { cmsPipelineFree(pipeline) }
            let identity = cmsBuildGamma(nil, 1), gamma3 = cmsBuildGamma(nil, 3)
            defer { cmsFreeToneCurve(identity); cmsFreeToneCurve(gamma3) }
            var identities = [identity, identity, identity], curves = [gamma3, gamma3, gamma3]
            let matrix = colorants(of: profile)
            if table == .lab {
                var nodes = labGrid(matrix: matrix) { pow($0, gamma) }
                cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, &identities))
                cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocCLut16bit(nil, 33, 3, 3, &nodes))
                cmsSetPCS(profile, cmsSigLabData)
            } else {
                // Rows: X, Y, Z; lcms2 encodes XYZ in a pipeline as 1 = 65,535 / 32,768.
                var rows = [\cmsCIEXYZ.X, \.Y, \.Z].flatMap { row in matrix.map { $0[keyPath: row] * 32_768 / 65_535 } }
                cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, &curves))
                cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocMatrix(nil, 3, 3, &rows, nil))
            }
            cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, &identities))
            cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        }
        return TestProfiles.bytes(of: profile)
    }

    private static let sRGBPrimaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1),
                                                       Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                                                       Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
    private static func rgbProfile(gamma: Double) -> cmsHPROFILE? {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1), primaries = sRGBPrimaries
        let curve = cmsBuildGamma(nil, gamma)
        defer { cmsFreeToneCurve(curve) }
        var curves = [curve, curve, curve]
        return cmsCreateRGBProfile(&white, &primaries, &curves)
    }

    /// The profile's red, green and blue colorants (D50 XYZ): the columns of its matrix.
    private static func colorants(of profile: cmsHPROFILE?) -> [cmsCIEXYZ] {
        [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].map {
            cmsReadTag(profile, $0).assumingMemoryBound(to: cmsCIEXYZ.self).pointee
        }
    }

    /// The Lab table's nodes, first channel slowest: each node's Lab (`linear` of the node, then `matrix`), encoded.
    private static func labGrid(matrix: [cmsCIEXYZ], linear: (Double) -> Double) -> [UInt16] {
        var values: [UInt16] = []
        for r in 0..<33 {
            for g in 0..<33 {
                for b in 0..<33 {
                    let rgb = [r, g, b].map { linear(Double($0) / 32) }
                    var xyz = cmsCIEXYZ(X: zip(matrix, rgb).reduce(0) { $0 + $1.0.X * $1.1 },
                                        Y: zip(matrix, rgb).reduce(0) { $0 + $1.0.Y * $1.1 },
                                        Z: zip(matrix, rgb).reduce(0) { $0 + $1.0.Z * $1.1 })
                    var lab = cmsCIELab()
                    cmsXYZ2Lab(nil, &lab, &xyz)
                    var encoded: [UInt16] = [0, 0, 0]
                    cmsFloat2LabEncoded(&encoded, &lab)
                    values += encoded
                }
            }
        }
        return values
    }
}

extension LookupTableProfiles {
    /// RGBA pixels, alpha full: each channel in turn through `levels`, the other two at every pair of `others`.
    static func ramps<Sample: FixedWidthInteger & UnsignedInteger>(_: Sample.Type, levels: ClosedRange<Int>,
                                                                   others: [Int]) -> [Sample] {
        var pixels: [Sample] = []
        for channel in 0..<3 {
            for first in others {
                for second in others {
                    for level in levels {
                        var pixel = [first, second].map { Sample($0) }
                        pixel.insert(Sample(level), at: channel)
                        pixels += pixel + [.max]
                    }
                }
            }
        }
        return pixels
    }

    /// The 8-bit test ramps: every level, the other channels at 0, 32, …, 224, 255 (256 × 243 pixels).
    static let ramps8: [UInt8] = ramps(UInt8.self, levels: 0...255, others: (0...8).map { min(255, $0 * 32) })
    /// The 16-bit test ramps: every level, the other channels at 0 or half (65,536 × 12 pixels).
    static let ramps16: [UInt16] = ramps(UInt16.self, levels: 0...65_535, others: [0, 32_768])
}
