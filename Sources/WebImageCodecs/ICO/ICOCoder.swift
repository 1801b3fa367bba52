import Foundation
import WebImageCore

/// Windows icons (ICO): decodes one entry, a PNG (through ``PNGCoder``, so every PNG option applies) or a
/// BMP-style DIB (1–32-bit, the AND mask as transparency); encodes one PNG entry (see ``ICOEncoder``).
///
/// Which entry: the largest by default; with ``ImageDecodeOptions/thumbnailPixelSize``, the smallest that is
/// at least that large on both sides (then scaled to the thumbnail like any other decode).
public final class ICOCoder: ImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with an icon directory (`00 00 01 00` and a count of 1…512).
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { ICODirectory.hasSignature($0) }
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            let directory = try ICODirectory.parse(bytes)
            return try ICOEntryDecoder.decode(bytes, entry: directory.entry(for: options.thumbnailPixelSize), options: options)
        }
    }

    /// The header of the entry a full decode picks (the largest), from its PNG or DIB header.
    public func header(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            let entry = try ICODirectory.parse(bytes).entry(for: nil)
            let slice = UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<entry.offset + entry.length])
            if PNGSignature.matches(slice) {
                var header = try PNGHeader.imageHeader(Data(slice))
                header.format = .ico
                return header
            }
            let dib = try BMPHeader.parse(dib: slice, at: 0, pixelOffset: nil)
            return ImageHeader(format: .ico, pixelSize: PixelSize(width: dib.width, height: dib.height / 2), hasAlpha: true,
                               bitDepth: dib.bitCount <= 8 ? dib.bitCount : 8)
        }
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .ico }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .ico else {
            throw WebImageError.encodingFailed(format: format, reason: "ICOCoder only writes ICO")
        }
        return try ICOEncoder.encode(image, options: options)
    }
}
