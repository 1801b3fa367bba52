import WebImageCore

extension ColorManagement {
    /// ``manage(_:profile:options:cache:)`` for a profile that had to be read or built first (from `nclx`,
    /// `gAMA`/`cHRM`): a failure leaves the pixels as stored and says why.
    static func manage(_ pixels: inout PixelBuffer, described: Result<[UInt8]?, ColorProfileFailure>,
                       options: ImageDecodeOptions) -> Outcome {
        switch described {
        case .failure(let failure): Outcome(issue: failure.reason)
        case .success(let profile): manage(&pixels, profile: profile, options: options)
        }
    }

    /// ``manage(_:described:options:)`` on every frame.
    static func manage(_ frames: inout [ImageFrame], described: Result<[UInt8]?, ColorProfileFailure>,
                       options: ImageDecodeOptions) -> Outcome {
        switch described {
        case .failure(let failure): Outcome(issue: failure.reason)
        case .success(let profile): manage(&frames, profile: profile, options: options)
        }
    }
}
