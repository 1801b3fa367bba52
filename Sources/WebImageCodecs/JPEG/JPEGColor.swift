import CJPEGShim
import WebImageCore

/// How a JPEG's decoded samples get their colour, the same for the one-shot and the incremental decoder: an RGB
/// file's profile is managed per ``ImageDecodeOptions/colorSpace``; a CMYK file's samples convert through its
/// profile in every mode (the model is RGB), or by the plain formula when it has no usable profile.
struct JPEGColor {
    let markers: JPEGMarkers
    let isCMYK: Bool

    /// Brings `pixelCount` decoded pixels at the start of `raw` (RGBA, or four CMYK samples each for a CMYK
    /// file) to sRGB RGBA, or keeps them with `.preserve` on an RGB file; pixels after them are not decoded yet
    /// and stay as they are.
    func manage(_ raw: UnsafeMutableRawBufferPointer, pixelCount: Int, options: ImageDecodeOptions)
        -> ColorManagement.Outcome {
        let profile = markers.iccProfile
        guard isCMYK else {
            return ColorManagement.manage(raw, format: .rgba8, pixelCount: pixelCount, profile: profile,
                                          options: options)
        }
        var outcome = ColorManagement.Outcome.none
        if let profile {
            let decoded = UnsafeMutableRawBufferPointer(rebasing: raw[0 ..< pixelCount * 4])
            switch ColorManagement.convertCMYK(decoded, pixelCount: pixelCount, profile: profile,
                                               inverted: markers.hasAdobeMarker) {
            case .success: return .none
            case .failure(let failure): outcome.issue = failure.reason
            }
        }
        wi_jpeg_cmyk_to_rgba(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), pixelCount,
                             markers.hasAdobeMarker ? 1 : 0)
        return outcome
    }
}
