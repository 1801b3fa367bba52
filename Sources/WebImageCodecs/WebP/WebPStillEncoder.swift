import Foundation
import WebImageCore

/// Encodes one raster as a still WebP, honouring quality, lossless and the file-size limit.
enum WebPStillEncoder {
    /// Lossy at `quality` × 100, or (near-)lossless with `quality` as the effort. With
    /// ``ImageEncodeOptions/maxFileSize`` (lossy only) the largest whole quality up to the requested one whose
    /// output fits is chosen by binary search; when none fits, the quality-0 output (the smallest) is returned.
    static func encode(_ pixels: PixelBuffer, options: ImageEncodeOptions) throws -> Data {
        let requested = Int((options.quality * 100).rounded())
        guard WebPEncoding.compression(options) == .lossy, let limit = options.maxFileSize else {
            return try encode(pixels, quality: requested, options: options)
        }
        return try QualitySearch.largestFitting(limit, requested: requested, lowest: 0) {
            try encode(pixels, quality: $0, options: options)
        }
    }

    private static func encode(_ pixels: PixelBuffer, quality: Int, options: ImageEncodeOptions) throws -> Data {
        try WebPEncoding.encode(pixels, config: WebPEncoding.makeConfig(quality: Float(quality), options: options))
    }
}
