import CJPEGShim
import WebImageCore

/// How the incremental decoder's images get their colour, the same way the one-shot decode does: an RGB file's
/// profile is managed per ``ImageDecodeOptions/colorSpace``; a CMYK file's rows stay CMYK samples and convert
/// through its profile in every mode (the model is RGB), or by the plain formula when it has no usable profile.
struct JPEGColor {
    private enum Kind {
        case rgb(profile: [UInt8]?)
        case cmykProfile(ColorConversion)
        case cmykFormula(issue: String?)
    }

    private let kind: Kind
    /// Adobe's 255 − ink convention.
    private let inverted: Bool

    init(markers: JPEGMarkers, isCMYK: Bool) {
        inverted = markers.hasAdobeMarker
        guard isCMYK else {
            kind = .rgb(profile: markers.iccProfile)
            return
        }
        guard let profile = markers.iccProfile else {
            kind = .cmykFormula(issue: nil)
            return
        }
        switch ColorConversionCache.shared.conversion(for: profile, layout: .cmyk(inverted: markers.hasAdobeMarker)) {
        case .success(let conversion): kind = .cmykProfile(conversion)
        case .failure(let failure): kind = .cmykFormula(issue: failure.reason)
        }
    }

    /// What libjpeg writes for a CMYK file.
    var cmykOutput: WIJPEGCMYKOutput {
        switch kind {
        case .cmykProfile: WI_JPEG_CMYK_SAMPLES
        case .rgb, .cmykFormula: inverted ? WI_JPEG_CMYK_FORMULA_INVERTED : WI_JPEG_CMYK_FORMULA
        }
    }

    /// Brings the first `rows` rows of a copy of the canvas to sRGB (or keeps them, with `.preserve` on an RGB
    /// file); rows below are not decoded yet and stay as they are.
    func manage(_ pixels: inout PixelBuffer, rows: Int, options: ImageDecodeOptions) -> ColorManagement.Outcome {
        switch kind {
        case .rgb(let profile):
            return ColorManagement.manage(&pixels, profile: profile, options: options)
        case .cmykProfile(let conversion):
            let count = rows * pixels.width
            pixels.withUnsafeMutableBytes { raw in
                conversion.apply(to: UnsafeMutableRawBufferPointer(rebasing: raw[0 ..< count * 4]), pixelCount: count)
            }
            return .none
        case .cmykFormula(let issue):
            return ColorManagement.Outcome(issue: issue)
        }
    }
}
