import Foundation
import WebImageCore

/// What every decoder calls with the profile it found: converts the raster to sRGB or decides to attach the
/// profile, per ``ImageDecodeOptions/colorSpace``.
///
/// A coder reads its format's profile (raw ICC bytes), decodes the raster, then calls
/// ``manage(_:profile:options:)`` on each frame and passes the outcome's ``Outcome/iccProfile`` and
/// ``Outcome/issue`` to the `Image` it builds. A profile that cannot be used never fails the decode: the pixels
/// stay as stored and the outcome's issue says why.
enum ColorManagement {
    /// What to record on the image.
    struct Outcome {
        /// The profile to attach (``DecodeColorSpace/preserve`` only).
        var iccProfile: Data?
        /// Why the profile was not applied.
        var issue: String?

        /// Nothing to record: no profile, or the pixels are sRGB now.
        static let none = Outcome()
    }

    /// Converts `pixels` (RGBA, 8 or 16 bits) from `profile` to sRGB in place, or leaves them and returns the
    /// profile to attach. Nil or empty `profile`: the pixels are sRGB already.
    static func manage(_ pixels: inout PixelBuffer, profile: [UInt8]?, options: ImageDecodeOptions,
                       cache: ColorConversionCache = .shared) -> Outcome {
        guard let profile, !profile.isEmpty else { return .none }
        let (format, count) = (pixels.format, pixels.width * pixels.height)
        return pixels.withUnsafeMutableBytes {
            manage($0, format: format, pixelCount: count, profile: profile, options: options, cache: cache)
        }
    }

    /// ``manage(_:profile:options:cache:)`` on a raster being filled (a decoder's output buffer), so the
    /// conversion happens in the storage the decoder wrote.
    static func manage(_ raw: UnsafeMutableRawBufferPointer, format: PixelFormat, pixelCount: Int, profile: [UInt8]?,
                       options: ImageDecodeOptions, cache: ColorConversionCache = .shared) -> Outcome {
        switch plan(profile: profile, format: format, options: options, cache: cache) {
        case .record(let outcome):
            return outcome
        case .convert(let conversion):
            conversion.apply(to: raw, pixelCount: pixelCount)
            return .none
        }
    }

    /// What a decoder does with the profile it found.
    enum Plan {
        /// Leave the pixels as they are and record this on the image.
        case record(Outcome)
        /// Convert the pixels (then there is nothing to record).
        case convert(ColorConversion)
    }

    /// The plan for `profile` on a `format` raster, for decoders that convert as they go (in bands).
    static func plan(profile: [UInt8]?, format: PixelFormat, options: ImageDecodeOptions,
                     cache: ColorConversionCache = .shared) -> Plan {
        guard let profile, !profile.isEmpty else { return .record(.none) }
        if options.colorSpace == .preserve { return .record(Outcome(iccProfile: Data(profile))) }
        switch cache.conversion(for: profile, layout: .rgba(format)) {
        case .failure(let failure):
            return .record(Outcome(issue: failure.reason))
        case .success(let conversion):
            return conversion.convertsNothing ? .record(.none) : .convert(conversion)
        }
    }

    /// ``manage(_:profile:options:cache:)`` on every frame (the outcome is the same for each).
    static func manage(_ frames: inout [ImageFrame], profile: [UInt8]?, options: ImageDecodeOptions) -> Outcome {
        manage(&frames, color: profile.map(EmbeddedColor.icc), options: options)
    }

    /// Converts CMYK samples (four bytes a pixel, as TurboJPEG writes them) to sRGB RGBA in place through the
    /// file's CMYK profile; a failure when the profile cannot be used (the caller falls back to the plain formula).
    static func convertCMYK(_ raw: UnsafeMutableRawBufferPointer, pixelCount: Int, profile: [UInt8],
                            inverted: Bool, cache: ColorConversionCache = .shared) -> Result<Void, ColorProfileFailure> {
        // A CMYK raster cannot stay as it is (the model is RGB), so `.preserve` converts too.
        cache.conversion(for: profile, layout: .cmyk(inverted: inverted)).map { conversion in
            conversion.apply(to: raw, pixelCount: pixelCount)
        }
    }
}
