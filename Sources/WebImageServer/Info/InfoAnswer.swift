import Foundation

/// The JSON `/info` answers, as imgproxy Pro names its fields; a field not asked for (or not present, as a
/// source's EXIF) is left out.
struct InfoAnswer: Encodable, Sendable {
    var size: Int?
    var format: String?
    var mimeType: String?
    var width: Int?
    var height: Int?
    var orientation: Int?
    var exif: [String: String]?
    var iptc: [String: InfoValue]?
    var photoshop: PhotoshopInfo?
    var xmp: [String: [String: InfoValue]]?
    var videoMeta: [String: String]?
    var videoStreams: [VideoStreamInfo]?
    var colorspace: String?
    var bands: Int?
    var sampleFormat: String?
    var pagesNumber: Int?
    var alpha: AlphaInfo?
    var crop: RelativeRect?
    var palette: [RGBAValue]?
    var average: RGBAValue?
    var dominantColors: [String: RGBValue]?
    var blurhash: String?
    var thumbHash: String?
    var perceptualHash: String?
    var hashsums: [String: String]?

    enum CodingKeys: String, CodingKey {
        case size, format, mimeType = "mime_type", width, height, orientation, exif, iptc, photoshop, xmp
        case videoMeta = "video_meta", videoStreams = "video_streams", colorspace, bands
        case sampleFormat = "sample_format", pagesNumber = "pages_number", alpha, crop, palette, average
        case dominantColors = "dominant_colors", blurhash, thumbHash = "thumb_hash", perceptualHash = "perceptual_hash"
        case hashsums
    }

    /// The answer as JSON, keys sorted (the same info is always the same bytes, whatever the cache tier).
    func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}

/// A metadata value: one text, or the texts of a repeated field or list.
enum InfoValue: Encodable, Sendable, Equatable {
    case text(String)
    case list([String])
    case number(Double)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .list(let texts): try container.encode(texts)
        case .number(let number): try container.encode(number)
        }
    }
}

/// `photoshop`: the resolution resource (0x03ED) of Photoshop's image resources.
struct PhotoshopInfo: Encodable, Sendable {
    var resolution: [String: InfoValue]
}

struct AlphaInfo: Encodable, Sendable {
    var alpha: Bool
    /// With `check_transparency`: whether any pixel is not fully opaque.
    var transparent: Bool?
}

/// A rectangle in fractions of the upright image's width and height.
struct RelativeRect: Encodable, Sendable {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
}

struct RGBAValue: Encodable, Sendable, Equatable {
    var r: Int
    var g: Int
    var b: Int
    var a: Int

    enum CodingKeys: String, CodingKey { case r = "R", g = "G", b = "B", a = "A" }
}

struct RGBValue: Encodable, Sendable, Equatable {
    var r: Int
    var g: Int
    var b: Int

    enum CodingKeys: String, CodingKey { case r = "R", g = "G", b = "B" }
}
