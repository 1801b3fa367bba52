import CLCMS2

/// lcms2 plumbing shared by the colour code.
enum LittleCMS {
    /// The context every profile and transform is made in. Its error handler hands lcms2's messages to
    /// ``LibraryMessages`` (nowhere unless the program routes them): lcms2 reports every failure through return
    /// values too, a broken profile in a downloaded image is ordinary input, and the default handler would write
    /// to stderr.
    nonisolated(unsafe) static let context: cmsContext? = {
        let context = cmsCreateContext(nil, nil)
        cmsSetLogErrorHandlerTHR(context) { _, _, text in
            LibraryMessages.send(LibraryLogMessage(library: "lcms2", text: text.map { String(cString: $0) } ?? ""))
        }
        return context
    }()

    /// lcms2's pixel type words, spelled out because its `TYPE_*` macros are function-like and Swift cannot
    /// import them.
    enum PixelType {
        static let rgba8 = word(space: 4, channels: 3, bytes: 1, extra: 1)
        static let rgba16 = word(space: 4, channels: 3, bytes: 2, extra: 1)
        static let rgb8 = word(space: 4, channels: 3, bytes: 1)
        static let rgb16 = word(space: 4, channels: 3, bytes: 2)
        /// `TYPE_RGB_FLT`: 32-bit floats, not clipped to 0…1.
        static let rgbFloat = word(space: 4, channels: 3, bytes: 4) | 1 << 22
        static let gray8 = word(space: 3, channels: 1, bytes: 1)
        static let gray16 = word(space: 3, channels: 1, bytes: 2)
        static let cmyk8 = word(space: 6, channels: 4, bytes: 1)
        /// CMYK stored as 255 − ink (Adobe's JPEGs).
        static let cmyk8Inverted = word(space: 6, channels: 4, bytes: 1, flavor: 1)

        /// `COLORSPACE_SH(space) | FLAVOR_SH(flavor) | EXTRA_SH(extra) | CHANNELS_SH(channels) | BYTES_SH(bytes)`.
        private static func word(space: UInt32, channels: UInt32, bytes: UInt32, extra: UInt32 = 0,
                                 flavor: UInt32 = 0) -> UInt32 {
            space << 16 | flavor << 13 | extra << 7 | channels << 3 | bytes
        }
    }

    /// `INTENT_PERCEPTUAL`.
    static let perceptual: UInt32 = 0
    /// `cmsFLAGS_NOCACHE` (no one-pixel cache, so one transform can run on several threads at once) and
    /// `cmsFLAGS_COPY_ALPHA` (alpha copied through untouched).
    static let sharedTransformFlags: UInt32 = 0x0040 | 0x0400_0000
    /// `cmsFLAGS_NOCACHE` alone, for transforms whose output has no alpha to copy.
    static let noCache: UInt32 = 0x0040

    /// Whether lcms2 converts from the RGB `profile` (perceptual intent) through its matrix/TRC tags: it has them
    /// and no table for that intent (`D2B0`, `A2B0`), which lcms2, skcms and ColorSync use instead when present.
    static func convertsThroughMatrixShaper(_ profile: cmsHPROFILE) -> Bool {
        cmsIsMatrixShaper(profile) != 0 && cmsIsTag(profile, cmsSigDToB0Tag) == 0
            && cmsIsTag(profile, cmsSigAToB0Tag) == 0
    }

    /// Runs `body` with `profile` opened in ``context``; nil when lcms2 cannot read it.
    static func withProfile<R>(_ profile: [UInt8], _ body: (cmsHPROFILE) throws -> R) rethrows -> R? {
        guard let handle = profile.withUnsafeBytes({
            cmsOpenProfileFromMemTHR(context, $0.baseAddress, cmsUInt32Number(clamping: $0.count))
        }) else { return nil }
        defer { cmsCloseProfile(handle) }
        return try body(handle)
    }

    /// The bytes of an lcms2 profile, or nil when it cannot be serialised.
    static func bytes(of profile: cmsHPROFILE) -> [UInt8]? {
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return Array(bytes.prefix(Int(size)))
    }
}
