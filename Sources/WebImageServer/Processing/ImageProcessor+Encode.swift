import Foundation
import WebImage

/// Writing the result.
extension ImageProcessor {
    /// The formats that carry a colour profile (imgproxy's `SupportsColourProfile`): `strip_color_profile:false`
    /// keeps the source's in them, and converts to sRGB for the others.
    static func carriesProfile(_ format: ImageFormat) -> Bool {
        [.jpeg, .png, .webp, .avif, .heic, .heif, .jxl, .tiff].contains(format)
    }

    /// The largest side each format can hold (imgproxy's `fix_size.go`: WebP's 16,383, AVIF and HEIC's
    /// 16,384, GIF's 65,535).
    static let maxSide: [ImageFormat: Int] = [.webp: 16_383, .avif: 16_384, .heic: 16_384, .gif: 65_535]

    /// `image` scaled down, every frame alike, to the largest side `format` holds, as imgproxy does before saving.
    func fitted(_ image: Image, to format: ImageFormat) -> Image {
        let size = image.pixels.size
        guard let limit = Self.maxSide[format], max(size.width, size.height) > limit else { return image }
        let scale = Double(limit) / Double(max(size.width, size.height))
        let target = PixelSize(width: max(1, Int((Double(size.width) * scale).rounded())),
                               height: max(1, Int((Double(size.height) * scale).rounded())))
        return image.with(frames: image.frames.map {
            ImageFrame(pixels: Resampler.resample($0.pixels, to: target), duration: $0.duration)
        })
    }

    func encode(_ image: Image, as format: ImageFormat, options: ProcessingOptions) throws(ProxyError) -> Data {
        let quality = self.quality.quality(for: format, options: options)
        // AVIF at libavif's default speed costs several times WebP's CPU per request; speed 10 keeps a busy
        // service's latency near the other formats' (larger files, as imgproxy's fast AVIF settings).
        let encodeOptions = ImageEncodeOptions(quality: Double(quality) / 100, backgroundColor: options.background,
                                               maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                                               firstFrameOnly: !FormatChoice.writesAnimation(format),
                                               effort: format == .avif ? .fastest : nil)
        do {
            return try coders.encode(image, as: format, options: encodeOptions)
        } catch {
            throw .unprocessable("cannot encode the result as \(format.rawValue): \(error)")
        }
    }
}
