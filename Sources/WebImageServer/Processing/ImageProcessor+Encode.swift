import Foundation
import WebImage

/// Writing the result.
extension ImageProcessor {
    /// The formats that carry a colour profile (imgproxy's `SupportsColourProfile`): `strip_color_profile:false`
    /// keeps the source's in them, and converts to sRGB for the others.
    static func carriesProfile(_ format: ImageFormat) -> Bool {
        [.jpeg, .png, .webp, .avif, .heic, .heif, .jxl, .tiff].contains(format)
    }

    func encode(_ image: Image, as format: ImageFormat, options: ProcessingOptions) throws(ProxyError) -> Data {
        let quality = encoding.quality(for: format, options: options)
        let encodeOptions = ImageEncodeOptions(quality: Double(quality) / 100, backgroundColor: options.background,
                                               maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                                               firstFrameOnly: !FormatChoice.writesAnimation(format),
                                               tuning: encoding.tuning(for: options))
        do {
            return try coders.encode(image, as: format, options: encodeOptions)
        } catch {
            throw .unprocessable("cannot encode the result as \(format.rawValue): \(error)")
        }
    }
}
