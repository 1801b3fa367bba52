import Foundation
import WebImageCore

/// TIFF over libtiff 4.5, read from and written to memory.
///
/// Decoding: strips or tiles, any compression libtiff was built with; contiguous 8- and 16-bit grey and RGB
/// (with alpha) are expanded directly (16-bit to `.rgba16`), every other layout (palette, 1–4-bit, white-is-zero,
/// YCbCr and JPEG, CMYK, separate planes) through libtiff's RGBA reader as 8-bit; 8-bit CMYK with an ICC
/// profile through that profile. Each top-level page of the first page's size is a frame (reduced-resolution
/// copies are skipped; ``ImageDecodeOptions/firstFrameOnly`` reads the first page alone). The Orientation tag
/// is reported as ``Image/orientation``; the ICC profile is managed per ``ImageDecodeOptions/colorSpace``.
/// Errors and warnings go to a per-handle log (nothing is printed), and libtiff's single allocations are
/// bounded by the first page's size, which is checked against ``ImageDecodeOptions/maxPixelCount`` first.
///
/// Encoding: see ``TIFFEncoder``.
///
/// ```swift
/// let image = try TIFFCoder().decode(data, options: .init())
/// let tiff = try TIFFCoder().encode(image, as: .tiff, options: .init())
/// ```
public final class TIFFCoder: ImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with a TIFF or BigTIFF header (`II*\0`, `MM\0*`, `II+\0`, `MM\0+`).
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { Self.hasSignature($0) }
    }

    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        return switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00), (0x4D, 0x4D, 0x00, 0x2A), (0x49, 0x49, 0x2B, 0x00), (0x4D, 0x4D, 0x00, 0x2B): true
        default: false
        }
    }

    /// Decodes every page (or only the first, per the options) at the size the options ask for.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        var store = RasterStore.fresh
        return try data.withUnsafeBytes { try TIFFDecoding.decode($0, store: &store, options: options) }
    }

    /// Decodes like ``decode(_:options:)`` with the first page straight in `buffer`'s storage when it can (see
    /// ``ImageDecoding/decode(_:reusing:options:)``).
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try RasterStore.reusing(&buffer) { store in
            try data.withUnsafeBytes { try TIFFDecoding.decode($0, store: &store, options: options) }
        }
    }

    /// Size, page count, alpha, bit depth, orientation and profile from the directories' tags.
    public func header(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { try TIFFDecoding.header($0) }
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .tiff }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .tiff else {
            throw WebImageError.encodingFailed(format: format, reason: "TIFFCoder only writes TIFF")
        }
        return try TIFFEncoder.encode(image, options: options)
    }
}
