import Foundation
import WebImageCore

/// Windows and OS/2 bitmaps, decoded and encoded in Swift (no C library reads BMP).
///
/// Decoding: 1-, 2-, 4- and 8-bit palettes, RLE4 and RLE8 (with deltas and early end of line or bitmap, the
/// skipped pixels transparent), 16- and 32-bit bitfields of any widths (alpha from an alpha mask), 24-bit,
/// top-down rows, OS/2 v1 and v2 headers, V4 and V5 headers and a V5 embedded ICC profile (managed per
/// ``ImageDecodeOptions/colorSpace``). Not decoded (typed errors): embedded JPEG or PNG, OS/2 Huffman and
/// RLE24, 64-bit pixels. Every size is checked before allocating: the pixel count against
/// ``ImageDecodeOptions/maxPixelCount``, uncompressed rows against the bytes present.
///
/// Encoding: see ``BMPEncoder``.
public final class BMPCoder: ImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with "BM".
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { BMPHeader.hasSignature($0) }
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try BMPDecoding.decode(data, options: options)
    }

    /// Size, alpha, bit depth and profile from the headers.
    public func header(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try BMPDecoding.header(data)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .bmp }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .bmp else {
            throw WebImageError.encodingFailed(format: format, reason: "BMPCoder only writes BMP")
        }
        return try BMPEncoder.encode(image, options: options)
    }
}
