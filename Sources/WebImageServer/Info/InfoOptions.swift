import WebImage

/// What an `/info` request asks about its source: imgproxy Pro's info options, each default as its docs give
/// it (the cheap fields on, the ones that need the pixels off).
struct InfoOptions: Sendable, Hashable {
    var size = true
    /// `format` and `mime_type`.
    var format = true
    /// `width`, `height` (upright) and `orientation`.
    var dimensions = true
    var exif = true
    /// EXIF tags by libexif's names (`DateTimeOriginal`) instead of its titles (`Date and Time (Original)`).
    var exifCanonicalNames = false
    /// IPTC-IIM datasets and Photoshop's resolution resource.
    var iptc = true
    var xmp = true
    /// `video_meta` and `video_streams`, for a video source.
    var videoMeta = true
    var colorspace = false
    var bands = false
    var sampleFormat = false
    var pagesNumber = false
    var alpha = false
    /// With ``alpha``: whether any pixel is not fully opaque.
    var checkTransparency = false
    /// Relative crop coordinates of this crop (processing's `crop` arguments); nil: none asked.
    var crop: ProcessingOptions.Crop?
    /// The largest palette asked (2…256); 0: none.
    var palette = 0
    var average = false
    /// Fully transparent pixels left out of the average.
    var averageIgnoresTransparent = true
    var dominantColors = false
    /// Swatches not found built from the ones found (node-vibrant's `generateEmptySwatches`).
    var buildMissedColors = false
    /// BlurHash components (1…9 each); 0: none asked.
    var blurHashX = 0
    var blurHashY = 0
    var thumbHash = false
    var perceptualHash = false
    /// Digests of the source's bytes, in the order asked.
    var hashsums: [ProcessingOptions.Hashsum.Algorithm] = []
    /// The page (or frame) the pixel options look at, from 0.
    var page = 0
    /// imgproxy Pro's video thumbnail options: part of the key, used by video sources.
    var videoThumbnailSecond: Double?
    var videoThumbnailKeyframes: Bool?
    var cacheBuster: String?
    /// Checked before any work (404 once past), outside the key.
    var expires: Int?
    /// The source must have this digest (422 otherwise), as processing's `hashsum`.
    var hashsum: ProcessingOptions.Hashsum?

    /// Whether anything asked needs the decoded pixels.
    var decodes: Bool {
        (alpha && checkTransparency) || crop?.gravity == .smart || palette > 0 || average || dominantColors
            || blurHashX > 0 || thumbHash || perceptualHash
    }
}

extension ProcessingOptions.Hashsum.Algorithm: ResultKeyValue {}

extension Array: ResultKeyValue where Element == ProcessingOptions.Hashsum.Algorithm {
    var keyText: String { map(\.rawValue).joined(separator: ",") }
}
