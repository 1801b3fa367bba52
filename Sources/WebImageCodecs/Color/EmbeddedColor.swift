import WebImageCore

/// The colour description a decoder found in a file: an ICC profile, or `nclx` code points (AVIF, HEIF).
enum EmbeddedColor: Sendable {
    case icc([UInt8])
    case nclx(NCLXColor)

    /// Whether decoding converts from it: an ICC profile, or `nclx` code points other than sRGB's.
    var differsFromSRGB: Bool {
        switch self {
        case .icc: true
        case .nclx(let nclx):
            switch nclx.profile {
            case .success(let profile): profile != nil
            case .failure: true
            }
        }
    }
}

extension ColorManagement {
    /// Converts `pixels` from `color` to sRGB or attaches its profile, per ``ImageDecodeOptions/colorSpace``;
    /// nil `color`: the pixels are sRGB already.
    static func manage(_ pixels: inout PixelBuffer, color: EmbeddedColor?, options: ImageDecodeOptions) -> Outcome {
        switch color {
        case nil: .none
        case .icc(let profile): manage(&pixels, profile: profile, options: options)
        case .nclx(let nclx): nclx.manage(&pixels, options: options)
        }
    }

    /// ``manage(_:color:options:)`` on every frame (the outcome is the same for each).
    static func manage(_ frames: inout [ImageFrame], color: EmbeddedColor?, options: ImageDecodeOptions) -> Outcome {
        var outcome = Outcome.none
        for index in frames.indices {
            outcome = manage(&frames[index].pixels, color: color, options: options)
        }
        return outcome
    }

    /// ``manage(_:profile:options:cache:)`` for a profile that had to be built first: a failure leaves the
    /// pixels as stored and says why.
    static func manage(_ pixels: inout PixelBuffer, built: Result<[UInt8]?, ColorProfileFailure>,
                       options: ImageDecodeOptions) -> Outcome {
        switch built {
        case .failure(let failure): Outcome(issue: failure.reason)
        case .success(let profile): manage(&pixels, profile: profile, options: options)
        }
    }
}
