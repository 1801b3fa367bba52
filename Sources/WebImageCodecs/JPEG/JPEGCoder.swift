import Foundation
import WebImageCore

/// Decodes and encodes JPEG with libjpeg-turbo (SDWebImage's JPEG support in `SDImageIOCoder`).
///
/// Decoding uses TurboJPEG straight into the image's pixels: baseline, progressive, greyscale and CMYK/YCCK
/// files, the EXIF orientation reported (or applied with `applyOrientation`), thumbnails and scale-down
/// limits decoded at 1/2, 1/4 or 1/8 size in the DCT domain before the exact resample. Progressive
/// loading goes through libjpeg's buffered-image mode (see ``makeProgressiveDecoder(options:)``).
///
/// ```swift
/// let thumbnail = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 400, height: 300)))
/// let bytes = try JPEGCoder().encode(thumbnail, as: .jpeg, options: .init(quality: 0.8))
/// ```
public final class JPEGCoder: ProgressiveImageCoding, ImageHeaderReading {
    /// A stateless coder; one instance can decode and encode on any number of threads at once.
    public init() {}

    /// JPEG starts with SOI (FF D8) followed by a marker.
    public func canDecode(_ data: Data) -> Bool {
        data.count >= 3 && data.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Decodes complete JPEG bytes at the size `options` ask for.
    ///
    /// Throws `.badImageData(.truncated)` for a file that ends early (libjpeg would fill the rest with grey),
    /// `.tooManyPixels` from the header alone, `.corrupt` with libjpeg's message otherwise.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            let image = try JPEGDecoding.decode(data, store: &store, options: options)
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(JPEGMetadata.read) }
        }
    }

    /// Decodes like ``decode(_:options:)`` into `buffer`'s storage, reused when it is the only owner and big
    /// enough (see ``ImageDecoding/decode(_:reusing:options:)``); a thumbnail reuses it for the DCT-scaled
    /// decode it is resampled from.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            let image = try RasterStore.reusing(&buffer) { store in
                try JPEGDecoding.decode(data, store: &store, options: options)
            }
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(JPEGMetadata.read) }
        }
    }

    /// The frame size, orientation and profile, from the markers before the first scan.
    public func header(_ data: Data) throws -> ImageHeader {
        try JPEGFrameHeader.header(data)
    }

    /// Only JPEG.
    public func canEncode(to format: ImageFormat) -> Bool { format == .jpeg }

    /// Encodes the first frame (JPEG has no animation); transparency is flattened onto
    /// `options.backgroundColor` (white by default) and 16-bit images are rounded to 8 bits.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .jpeg else {
                throw WebImageError.encodingFailed(format: format, reason: "JPEGCoder only writes JPEG")
            }
            return try JPEGEncoding.encode(image, options: options)
        }
    }

    /// Any bytes starting with SOI: the decoder waits for the rest of the header itself.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        data.starts(with: [0xFF, 0xD8])
    }

    /// A decoder that yields a sharper image per complete scan of a progressive JPEG, or the rows received
    /// so far of a baseline one (rows not yet received are transparent, so those partial images have
    /// `hasAlpha` true); its final image equals ``decode(_:options:)`` of the same bytes, pixel for pixel.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        JPEGProgressiveDecoder(options: options)
    }
}
