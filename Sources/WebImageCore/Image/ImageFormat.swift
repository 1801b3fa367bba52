import Foundation

/// An image container format, identified from the data's magic bytes (SDWebImage's `SDImageFormat`).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, gif, webp, heic, heif, avif, tiff, bmp, svg, pdf
    /// JPEG XL: a bare codestream or the ISO-BMFF-style container.
    case jxl
    /// Bytes that match no known signature.
    case undefined
    /// Windows icon: a directory of PNG or BMP images.
    case ico
    /// Video containers (``VideoSniffing``): read by the video coder, one frame a decode; never written.
    case mp4, mov, webm, mkv, avi

    /// Sniffs the format from the first bytes, with SDWebImage's table.
    ///
    /// FF → JPEG, 89 → PNG, 47 → GIF, 49/4D → TIFF, 42 → BMP, `RIFF....WEBP` → WebP,
    /// an ISO-BMFF `ftyp` box → HEIC, HEIF or AVIF by its brands (`FileTypeBrands`: `....ftypavif|avis` → AVIF,
    /// `....ftypheic|heix|heim|heis|hevc|hevx|hevm|hevs` → HEIC, `....ftypmif1|msf1` → AVIF when the compatible
    /// brands list `avif` or `avis`, else HEIF — the table the AVIF and HEIF coders route by),
    /// `FF 0A` (codestream) or `00 00 00 0C 4A 58 4C 20 0D 0A 87 0A` (container) → JPEG XL,
    /// `00 00 01 00` and an image count of 1…512 (that is not an ISO-BMFF `ftyp` box) → ICO, `%PDF` → PDF,
    /// text whose first 4 KB (``svgSniffingLength``) hold an `<svg` root after an optional BOM and the XML prolog
    /// (declaration, comments, processing instructions, doctype) → SVG; MP4, MOV, WebM, Matroska and AVI by
    /// ``VideoSniffing``'s table.
    ///
    /// Compressed bytes are not looked into: gzip (an SVGZ) sniffs as ``undefined`` here, since inflating needs
    /// zlib and this module has no C imports. The SVG coder of `WebImageCodecs` claims gzip whose inflated start
    /// sniffs as SVG (`SVGZ`), so `CodersManager` decodes SVGZ.
    public init(sniffing data: Data) {
        self = data.withUnsafeBytes { Self.sniff(UnsafeRawBufferPointer($0)) }
    }

    /// Sniffs the format from raw bytes; see ``init(sniffing:)``.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        guard let first = bytes.first else { return .undefined }
        if let video = VideoSniffing.format(bytes) { return video }
        func ascii(_ range: Range<Int>) -> String? {
            guard range.upperBound <= bytes.count else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        switch first {
        case 0xFF: return bytes.count >= 2 && bytes[1] == 0x0A ? .jxl : .jpeg
        case 0x89: return .png
        case 0x47: return .gif
        case 0x49, 0x4D: return .tiff
        case 0x42: return .bmp
        case 0x52:
            if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return .webp }
        case 0x00:
            if bytes.starts(with: jxlContainerSignature) { return .jxl }
            if let format = FileTypeBrands.format(bytes) { return format }
            if bytes.count >= 6, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0, ascii(4..<8) != "ftyp",
               (1...maxIconCount).contains(Int(bytes[4]) | Int(bytes[5]) << 8) {
                return .ico
            }
        case 0x25:
            if ascii(0..<4) == "%PDF" { return .pdf }
        default: break
        }
        return SVGSniffing.isSVG(bytes) ? .svg : .undefined
    }

    /// How many leading bytes the SVG rule reads at most (4 KB): what a sniffer of compressed SVG inflates.
    public static let svgSniffingLength = SVGSniffing.prefixLength

    /// The first box of a JPEG XL container: a 12-byte `JXL ` box holding `0D 0A 87 0A` (also what the codecs'
    /// JPEG XL metadata reader checks before walking the boxes).
    package static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// The most images an ICO directory is taken to hold when sniffing (real icons hold a handful).
    private static let maxIconCount = 512

    /// Whether this is a video container (its image is one frame of the video).
    public var isVideo: Bool {
        switch self {
        case .mp4, .mov, .webm, .mkv, .avi: true
        default: false
        }
    }

    /// The usual file extension (`jpg` for JPEG), or nil for ``undefined``.
    public var fileExtension: String? {
        switch self {
        case .jpeg: "jpg"
        case .undefined: nil
        default: rawValue
        }
    }

    /// The format a file extension names (`jpg`, `jpeg`, `png`, `apng`, `gif`, `webp`, …), case-insensitive.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png", "apng": self = .png
        case "tif", "tiff": self = .tiff
        case let other:
            guard let format = ImageFormat(rawValue: other), format != .undefined else { return nil }
            self = format
        }
    }

    /// The IANA media type (`image/jpeg`, …), or nil for ``undefined``.
    public var mimeType: String? {
        switch self {
        case .jpeg: "image/jpeg"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        case .ico: "image/x-icon"
        case .mov: "video/quicktime"
        case .mkv: "video/x-matroska"
        case .avi: "video/x-msvideo"
        case .mp4, .webm: "video/\(rawValue)"
        case .undefined: nil
        default: "image/\(rawValue)"
        }
    }
}
