import WebImageCore

/// The colour description of a PNG, from the chunks before its image data: an `iCCP` profile, or `sRGB`
/// (nothing to convert), or `gAMA` with `cHRM` (turned into an equivalent ICC profile with lcms2).
enum PNGColorReader {
    static let iCCP: UInt32 = 0x6943_4350
    static let sRGB: UInt32 = 0x7352_4742
    static let gAMA: UInt32 = 0x6741_4D41
    static let cHRM: UInt32 = 0x6348_524D
    /// The largest profile inflated (real profiles are a few KB; this bounds a compression bomb).
    static let maxProfileSize = 4 << 20

    /// The profile the pixels are in (nil: sRGB or undeclared), or why a declared one cannot be used.
    static func profile(in bytes: UnsafeRawBufferPointer) -> Result<[UInt8]?, ColorProfileFailure> {
        switch declaration(in: bytes) {
        case .profile(let compressed): inflateProfile(compressed).map { $0 }
        case .gammaAndChromaticities(let gamma, let chromaticities):
            synthesize(gamma: gamma, chromaticities: chromaticities).map { $0 }
        case .sRGB: .success(nil)
        }
    }

    /// Whether the PNG declares colour other than sRGB (what ``profile(in:)`` would convert from), without
    /// inflating or building the profile.
    static func describesColor(in bytes: UnsafeRawBufferPointer) -> Bool {
        if case .sRGB = declaration(in: bytes) { false } else { true }
    }

    /// What the chunks before the image data declare.
    private enum Declaration {
        /// An `iCCP` chunk's data.
        case profile(UnsafeRawBufferPointer)
        /// `gAMA` and `cHRM` that are not sRGB's.
        case gammaAndChromaticities(UInt32, [UInt32])
        /// `sRGB`, sRGB's `gAMA` and `cHRM`, or nothing.
        case sRGB
    }

    private static func declaration(in bytes: UnsafeRawBufferPointer) -> Declaration {
        var chunks = PNGChunkIterator(bytes)
        var gamma: UInt32?, chromaticities: [UInt32]?
        while let chunk = try? chunks.next(), chunk.type != PNGChunkType.IDAT, chunk.type != PNGChunkType.IEND {
            guard chunk.hasValidCRC(in: bytes) else { continue }
            let data = UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])
            switch chunk.type {
            case iCCP: return .profile(data)
            case sRGB: return .sRGB
            case gAMA where data.count == 4: gamma = data.bigEndianUInt32(at: 0)
            case cHRM where data.count == 32: chromaticities = (0..<8).map { data.bigEndianUInt32(at: $0 * 4) }
            default: break
            }
        }
        guard let gamma, gamma > 0, let chromaticities, !isSRGB(gamma: gamma, chromaticities: chromaticities) else {
            return .sRGB
        }
        return .gammaAndChromaticities(gamma, chromaticities)
    }

    /// sRGB's cHRM values (white, red, green, blue; × 100,000).
    private static let sRGBChromaticities: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]

    /// Whether gAMA and cHRM are the values libpng (and ImageMagick) write for sRGB: gAMA 45455 (1/2.2) and sRGB's
    /// chromaticities. Taken as sRGB itself, as libpng's own check does, rather than as a pure 2.2 power curve.
    private static func isSRGB(gamma: UInt32, chromaticities: [UInt32]) -> Bool {
        abs(Int(gamma) - 45455) <= 500
            && zip(chromaticities, sRGBChromaticities).allSatisfy { abs(Int($0) - Int($1)) <= 1000 }
    }

    /// iCCP: a Latin-1 name, a NUL, compression method 0, then the zlib-compressed profile.
    private static func inflateProfile(_ data: UnsafeRawBufferPointer) -> Result<[UInt8], ColorProfileFailure> {
        guard let nul = data.prefix(80).firstIndex(of: 0), nul + 2 <= data.count, data[nul + 1] == 0 else {
            return .failure(ColorProfileFailure("the iCCP chunk is malformed"))
        }
        let compressed = UnsafeRawBufferPointer(rebasing: data[(nul + 2)...])
        guard let profile = ZlibInflate.inflate(compressed, limit: maxProfileSize) else {
            return .failure(ColorProfileFailure("the iCCP chunk's ICC profile cannot be inflated"))
        }
        return .success(profile)
    }

    /// An RGB profile with the white point and primaries of cHRM and the transfer curve of gAMA (both in
    /// units of 1/100,000; gAMA is the encoding exponent, so the curve is its inverse).
    private static func synthesize(gamma: UInt32, chromaticities: [UInt32]) -> Result<[UInt8], ColorProfileFailure> {
        let value = chromaticities.map { Double($0) / 100_000 }
        let space = RGBColorSpace(
            chromaticities: Chromaticities(white: (value[0], value[1]), red: (value[2], value[3]),
                                           green: (value[4], value[5]), blue: (value[6], value[7])),
            transfer: .gamma(100_000 / Double(gamma)), name: "PNG gAMA and cHRM")
        return space.iccProfile()
    }

    /// Colour-manages a raster decoded from a PNG whose colour chunks gave `profile`.
    static func manage(_ raw: UnsafeMutableRawBufferPointer, format: PixelFormat,
                       profile: Result<[UInt8]?, ColorProfileFailure>,
                       options: ImageDecodeOptions) -> ColorManagement.Outcome {
        switch profile {
        case .failure(let failure):
            ColorManagement.Outcome(issue: failure.reason)
        case .success(let bytes):
            ColorManagement.manage(raw, format: format, pixelCount: raw.count / format.bytesPerPixel, profile: bytes,
                                   options: options)
        }
    }
}
