import CLCMS2

/// An RGB colour space given by numbers rather than by an embedded profile (PNG's `gAMA` + `cHRM`, the `nclx`
/// colour of AVIF and HEIF), turned into an equivalent ICC profile with lcms2 so that its images go through
/// the same conversion, cache and `.preserve` path as images that embed one.
struct RGBColorSpace: Hashable, Sendable {
    var chromaticities: Chromaticities
    var transfer: TransferCurve
    /// The profile's description (`desc`), what colour tools show for an attached profile.
    var name: String

    /// Offset and length of the ICC header's creation date.
    private static let dateRange = 24..<36

    /// The ICC profile (v4, matrix and tone curves; white adapted to D50 with Bradford, as lcms2 does).
    /// Its creation date is left zero so that one colour space always gives the same bytes, which is what the
    /// conversion cache is keyed by.
    func iccProfile() -> Result<[UInt8], ColorProfileFailure> {
        lcmsProfile().flatMap { profile in
            defer { cmsCloseProfile(profile) }
            guard var bytes = LittleCMS.bytes(of: profile), bytes.count > Self.dateRange.upperBound else {
                return .failure(ColorProfileFailure("lcms2 could not write the \(name) profile"))
            }
            bytes.replaceSubrange(Self.dateRange, with: repeatElement(0, count: Self.dateRange.count))
            return .success(bytes)
        }
    }

    /// The profile as an lcms2 handle, described (the caller closes it).
    func lcmsProfile() -> Result<cmsHPROFILE, ColorProfileFailure> {
        guard let curve = transfer.toneCurve() else {
            return .failure(ColorProfileFailure("lcms2 could not build the \(name) transfer curve"))
        }
        defer { cmsFreeToneCurve(curve) }
        let point = { (point: Chromaticities.Point) in cmsCIExyY(x: point.x, y: point.y, Y: 1) }
        var white = point(chromaticities.white)
        var primaries = cmsCIExyYTRIPLE(Red: point(chromaticities.red), Green: point(chromaticities.green),
                                        Blue: point(chromaticities.blue))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let made = curves.withUnsafeMutableBufferPointer {
            cmsCreateRGBProfileTHR(LittleCMS.context, &white, &primaries, $0.baseAddress)
        }
        guard let profile = made else {
            return .failure(ColorProfileFailure("the \(name) chromaticities do not make a colour space"))
        }
        guard describe(profile) else {
            cmsCloseProfile(profile)
            return .failure(ColorProfileFailure("lcms2 could not write the \(name) profile"))
        }
        return .success(profile)
    }

    private func describe(_ profile: cmsHPROFILE) -> Bool {
        guard let text = cmsMLUalloc(LittleCMS.context, 1) else { return false }
        defer { cmsMLUfree(text) }
        return cmsMLUsetASCII(text, "en", "US", name) != 0
            && cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text)) != 0
    }
}
