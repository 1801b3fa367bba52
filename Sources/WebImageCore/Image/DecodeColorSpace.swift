/// What a decoder does with an image's embedded colour profile (``ImageDecodeOptions/colorSpace``). Colour
/// described by numbers rather than a profile (PNG `gAMA` + `cHRM`, AVIF/HEIF `nclx`) is turned into an
/// equivalent profile first; HDR transfer functions (PQ, HLG) map 203 cd/m² to white and clip above it.
public enum DecodeColorSpace: String, Sendable, Hashable, Codable, CaseIterable {
    /// Convert the pixels from the embedded profile to sRGB (perceptual intent, alpha untouched), as browsers
    /// and image proxies do; the image carries no profile afterwards. Pixels without a profile are taken as
    /// sRGB already.
    case sRGB
    /// Keep the pixels as stored and attach the profile (``Image/iccProfile``), which encoders write back.
    /// CMYK pixels are still converted (the image model is RGB), so no CMYK profile is ever attached.
    case preserve
}
