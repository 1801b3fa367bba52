import CLCMS2
import Dispatch
import Foundation
import WebImageCore

/// The conversion from one ICC profile to sRGB, built once per profile and layout (see
/// ``ColorConversionCache``) and then applied to any number of rasters, from any number of threads.
///
/// RGB and CMYK profiles get an lcms2 transform (perceptual intent, alpha copied), except RGB through a
/// matrix-shaper profile without an `A2B0` table, which runs on ``MatrixShaperTables`` (8-bit) or
/// ``MatrixShaperTables16``; a grey profile gets a lookup table from grey
/// level to sRGB, since the image model stores grey as equal R, G and B. A profile that maps a grid of test
/// colours onto themselves (within one level) is sRGB in all but name and converts nothing.
final class ColorConversion: @unchecked Sendable {
    // Safe to share: built once and never mutated; the transform has no one-pixel cache (cmsFLAGS_NOCACHE),
    // so concurrent cmsDoTransform calls on it are allowed.
    private enum Kind {
        case identity
        case transform(cmsHTRANSFORM)
        case matrixShaper(MatrixShaperTables)
        case matrixShaper16(MatrixShaperTables16)
        /// sRGB R, G, B for each grey level (256 or 65,536 levels).
        case greyTable([UInt16])
    }

    private let kind: Kind
    private let layout: ColorSourceLayout

    /// Builds the conversion; throws a readable reason when the profile cannot be used.
    init(profile: [UInt8], layout: ColorSourceLayout) throws(ColorProfileFailure) {
        self.layout = layout
        let built = LittleCMS.withProfile(profile) { handle -> Result<Kind, ColorProfileFailure> in
            Self.build(from: handle, layout: layout)
        }
        guard let built else { throw ColorProfileFailure("lcms2 could not read the embedded ICC profile") }
        kind = try built.get()
    }

    deinit {
        if case .transform(let transform) = kind { cmsDeleteTransform(transform) }
    }

    /// Whether the profile is sRGB in all but name, so ``apply(to:pixelCount:)`` changes nothing.
    var convertsNothing: Bool {
        if case .identity = kind { return true }
        return false
    }

    /// Converts `pixels` to sRGB in place (CMYK: four CMYK bytes in, RGBA out with alpha 255).
    func apply(to raw: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        switch kind {
        case .identity:
            return
        case .matrixShaper(let tables):
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            nonisolated(unsafe) let start = base
            Self.inParallel(pixelCount: pixelCount) { first, count in
                tables.apply(to: start + first * 4, pixelCount: count)
            }
        case .matrixShaper16(let tables):
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt16.self) else { return }
            nonisolated(unsafe) let start = base
            Self.inParallel(pixelCount: pixelCount) { first, count in
                tables.apply(to: start + first * 4, pixelCount: count)
            }
        case .transform(let transform):
            guard let base = raw.baseAddress else { return }
            // Each chunk writes its own pixels only; the transform is safe to share (see the class comment).
            nonisolated(unsafe) let (shared, start) = (transform, base)
            let bytesPerPixel = layout == .rgba(.rgba16) ? 8 : 4
            Self.inParallel(pixelCount: pixelCount) { first, count in
                let pointer = start + first * bytesPerPixel
                cmsDoTransform(shared, pointer, pointer, cmsUInt32Number(count))
            }
            if case .cmyk = layout {
                for index in 0..<pixelCount { raw[index * 4 + 3] = 255 }
            }
        case .greyTable(let table):
            if layout == .rgba(.rgba16) {
                let samples = raw.bindMemory(to: UInt16.self)
                for index in 0..<pixelCount {
                    let level = Int(samples[index * 4]) * 3
                    samples[index * 4] = table[level]
                    samples[index * 4 + 1] = table[level + 1]
                    samples[index * 4 + 2] = table[level + 2]
                }
            } else {
                for index in 0..<pixelCount {
                    let level = Int(raw[index * 4]) * 3
                    raw[index * 4] = UInt8(table[level])
                    raw[index * 4 + 1] = UInt8(table[level + 1])
                    raw[index * 4 + 2] = UInt8(table[level + 2])
                }
            }
        }
    }

    /// Splits large rasters (a megapixel or more) over the cores.
    private static func inParallel(pixelCount: Int, _ body: @Sendable (Int, Int) -> Void) {
        let chunks = pixelCount < 1 << 20 ? 1 : min(8, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let size = (pixelCount + chunks - 1) / chunks
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = chunk * size
            if start < pixelCount { body(start, min(size, pixelCount - start)) }
        }
    }

    private static func build(from profile: cmsHPROFILE, layout: ColorSourceLayout) -> Result<Kind, ColorProfileFailure> {
        let space = cmsGetColorSpace(profile)
        let sRGB = cmsCreate_sRGBProfileTHR(LittleCMS.context)
        defer { if let sRGB { cmsCloseProfile(sRGB) } }
        switch (layout, space) {
        case (.rgba(let format), cmsSigRgbData):
            let type = format == .rgba16 ? LittleCMS.PixelType.rgba16 : LittleCMS.PixelType.rgba8
            guard let transform = cmsCreateTransformTHR(LittleCMS.context, profile, type, sRGB, type,
                                                        LittleCMS.perceptual, LittleCMS.sharedTransformFlags) else {
                return .failure(ColorProfileFailure("lcms2 could not build a transform from the RGB profile"))
            }
            if isIdentity(transform, format: format) {
                cmsDeleteTransform(transform)
                return .success(.identity)
            }
            if format == .rgba8, let tables = MatrixShaperTables(profile: profile, reference: transform) {
                cmsDeleteTransform(transform)
                return .success(.matrixShaper(tables))
            }
            if format == .rgba16, let tables = MatrixShaperTables16(profile: profile) {
                cmsDeleteTransform(transform)
                return .success(.matrixShaper16(tables))
            }
            return .success(.transform(transform))
        case (.rgba(let format), cmsSigGrayData):
            let sixteen = format == .rgba16
            guard let transform = cmsCreateTransformTHR(
                LittleCMS.context, profile, sixteen ? LittleCMS.PixelType.gray16 : LittleCMS.PixelType.gray8, sRGB,
                sixteen ? LittleCMS.PixelType.rgb16 : LittleCMS.PixelType.rgb8, LittleCMS.perceptual,
                LittleCMS.noCache) else {
                return .failure(ColorProfileFailure("lcms2 could not build a transform from the grey profile"))
            }
            defer { cmsDeleteTransform(transform) }
            return .success(.greyTable(greyTable(transform, levels: sixteen ? 65_536 : 256)))
        case (.cmyk(let inverted), cmsSigCmykData):
            let type = inverted ? LittleCMS.PixelType.cmyk8Inverted : LittleCMS.PixelType.cmyk8
            guard let transform = cmsCreateTransformTHR(LittleCMS.context, profile, type, sRGB,
                                                        LittleCMS.PixelType.rgba8, LittleCMS.perceptual,
                                                        LittleCMS.noCache) else {
                return .failure(ColorProfileFailure("lcms2 could not build a transform from the CMYK profile"))
            }
            return .success(.transform(transform))
        default:
            return .failure(ColorProfileFailure("the embedded ICC profile's colour space does not match the pixels"))
        }
    }

    /// Whether a 9 × 9 × 9 grid of colours comes back within one 8-bit level.
    private static func isIdentity(_ transform: cmsHTRANSFORM, format: PixelFormat) -> Bool {
        let levels = (0...8).map { min(255, $0 * 32) }
        var grid: [UInt8] = []
        for r in levels { for g in levels { for b in levels { grid += [UInt8(r), UInt8(g), UInt8(b), 255] } } }
        let count = grid.count / 4
        if format == .rgba16 {
            var wide = grid.map { UInt16($0) * 257 }
            let original = wide
            cmsDoTransform(transform, wide, &wide, cmsUInt32Number(count))
            return zip(wide, original).allSatisfy { abs(Int($0) - Int($1)) <= 257 }
        }
        var converted = grid
        cmsDoTransform(transform, grid, &converted, cmsUInt32Number(count))
        return zip(converted, grid).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    /// sRGB R, G, B for every grey level.
    private static func greyTable(_ transform: cmsHTRANSFORM, levels: Int) -> [UInt16] {
        var table = [UInt16](repeating: 0, count: levels * 3)
        if levels > 256 {
            let ramp = (0..<levels).map { UInt16($0) }
            cmsDoTransform(transform, ramp, &table, cmsUInt32Number(levels))
        } else {
            let ramp = (0..<levels).map { UInt8($0) }
            var bytes = [UInt8](repeating: 0, count: levels * 3)
            cmsDoTransform(transform, ramp, &bytes, cmsUInt32Number(levels))
            table = bytes.map { UInt16($0) }
        }
        return table
    }
}

/// Why a profile could not be applied (the text goes into ``Image/colorProfileIssue``).
struct ColorProfileFailure: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
