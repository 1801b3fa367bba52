import Foundation
import WebImage

/// A source's format and stored size, read from the first bytes without decoding, so limits are checked
/// before any pixel memory is allocated and the decode size can be chosen.
struct SourceHeader: Sendable, Hashable {
    var format: ImageFormat
    /// Width and height of the image the decoder delivers, before any orientation it reports (EXIF, or JPEG
    /// XL's codestream orientation): as stored, except that a HEIF or AVIF file's `clap` crop and `irot`
    /// rotation are applied, since their decoders deliver those upright.
    var size: PixelSize
    /// The size the decoder allocates: `size`, or a HEIF or AVIF file's coded size before its crop.
    var codedSize: PixelSize

    /// The formats the service reads.
    static let readable: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif, .heic, .heif, .jxl]

    /// Reads the header of a JPEG, PNG, GIF, WebP, AVIF, HEIC, HEIF or JPEG XL source; throws
    /// ``ProxyError/unprocessable(_:)`` for anything else or a header that cannot be read.
    init(_ data: Data) throws(ProxyError) {
        var format = ImageFormat(sniffing: data)
        // A generic `mif1`/`msf1` file whose brands name AV1 is AVIF, as the library routes it.
        if format == .heif, AVIFCoder().canDecode(data) { format = .avif }
        guard Self.readable.contains(format) else {
            throw .unprocessable(format == .undefined ? "the source is not an image"
                                                      : "the source format \(format.rawValue) is not supported")
        }
        let sizes: (size: PixelSize, coded: PixelSize)? = data.withUnsafeBytes { bytes in
            switch format {
            case .jpeg: Self.jpegSize(bytes).map { ($0, $0) }
            case .png: Self.pngSize(bytes).map { ($0, $0) }
            case .gif: Self.gifSize(bytes).map { ($0, $0) }
            case .webp: Self.webpSize(bytes).map { ($0, $0) }
            case .jxl: JXLHeader.size(bytes).map { ($0, $0) }
            default:
                HEIFHeader(bytes, format: format).map { ($0.size, $0.codedSize) }
            }
        }
        guard let sizes, sizes.size.width > 0, sizes.size.height > 0 else {
            throw .unprocessable("the source's \(format.rawValue) header cannot be read")
        }
        self.format = format
        size = sizes.size
        codedSize = sizes.coded
    }

    private static func be16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
    private static func le16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func le24(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int { le16(b, at) | Int(b[at + 2]) << 16 }
    private static func be32(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int { be16(b, at) << 16 | be16(b, at + 2) }

    /// The first start-of-frame marker's size (SOF0–SOF15 but DHT, JPG and DAC).
    private static func jpegSize(_ b: UnsafeRawBufferPointer) -> PixelSize? {
        var offset = 2
        while offset + 9 < b.count {
            guard b[offset] == 0xFF else { return nil }
            let marker = b[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = be16(b, offset + 2)
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return PixelSize(width: be16(b, offset + 7), height: be16(b, offset + 5))
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }

    private static func pngSize(_ b: UnsafeRawBufferPointer) -> PixelSize? {
        guard b.count >= 24, String(decoding: b[12..<16], as: UTF8.self) == "IHDR" else { return nil }
        return PixelSize(width: be32(b, 16), height: be32(b, 20))
    }

    private static func gifSize(_ b: UnsafeRawBufferPointer) -> PixelSize? {
        guard b.count >= 10 else { return nil }
        return PixelSize(width: le16(b, 6), height: le16(b, 8))
    }

    /// The canvas of an extended file, else the lossy or lossless bitstream's size.
    private static func webpSize(_ b: UnsafeRawBufferPointer) -> PixelSize? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X": return PixelSize(width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        case "VP8 ": return PixelSize(width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return PixelSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        default: return nil
        }
    }
}
