import Foundation
import WebImage

/// Writing the result.
extension ImageProcessor {
    /// The formats that carry a colour profile (imgproxy's `SupportsColourProfile`): `strip_color_profile:false`
    /// keeps the source's in them, and converts to sRGB for the others.
    static func carriesProfile(_ format: ImageFormat) -> Bool {
        [.jpeg, .png, .webp, .avif, .heic, .heif, .jxl, .tiff].contains(format)
    }

    /// The formats autoquality chooses a quality for: those a quality makes lossy.
    static let autoQualityFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic, .jxl]

    func encode(_ image: Image, as format: ImageFormat, options: ProcessingOptions) throws(ProxyError) -> Data {
        let tuning = encoding.tuning(for: options)
        func encodeOptions(quality: Int) -> ImageEncodeOptions {
            ImageEncodeOptions(quality: Double(quality) / 100, backgroundColor: options.background,
                               maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                               firstFrameOnly: !FormatChoice.writesAnimation(format), tuning: tuning,
                               dpi: options.dpi > 0 ? options.dpi : nil)
        }
        do {
            let auto = options.autoQuality.applied(to: encoding.autoQuality)
            if auto.method != .none, appliesAutoQuality(auto, to: image, format: format, tuning: tuning) {
                return try autoQualityEncode(image, as: format, settings: auto, background: options.background) { quality in
                    try coders.encode(image, as: format, options: encodeOptions(quality: quality))
                }
            }
            let quality = encoding.quality(for: format, options: options)
            return try coders.encode(image, as: format, options: encodeOptions(quality: quality))
        } catch let error as ProxyError {
            throw error
        } catch {
            throw .unprocessable("cannot encode the result as \(format.rawValue): \(error)")
        }
    }

    /// Autoquality holds for a still in a lossy format (WebP only when lossy), within the megapixel limit.
    private func appliesAutoQuality(_ settings: ImageProxyConfiguration.AutoQuality, to image: Image,
                                    format: ImageFormat, tuning: ImageEncodeTuning) -> Bool {
        guard Self.autoQualityFormats.contains(format), image.frameCount == 1 || !FormatChoice.writesAnimation(format),
              format != .webp || (tuning.webpCompression ?? .lossy) == .lossy else { return false }
        let megapixels = Double(image.pixels.width * image.pixels.height) / 1_000_000
        return settings.maxMegapixels <= 0 || megapixels <= settings.maxMegapixels
    }

    /// The result at the quality `settings` choose: the highest within the range whose bytes fit the target
    /// (`size`), or the lowest whose decoded pixels are within the target DSSIM of the result's (`dssim`).
    private func autoQualityEncode(_ image: Image, as format: ImageFormat, settings: ImageProxyConfiguration.AutoQuality,
                                   background: RGBAColor?, encode: (Int) throws -> Data) throws -> Data {
        let range = settings.range(for: format)
        if settings.method == .size {
            return try AutoQualitySearch.bySize(target: Int(settings.target.rounded(.down)), range: range,
                                                encode: encode).data
        }
        // What a viewer sees of the result: JPEG's transparency is flattened as the encoder flattens it.
        var reference = image.pixels
        if image.hasAlpha, !FormatChoice.holdsAlpha(format) {
            reference = reference.converted(to: .rgba8).flattened(onto: background ?? .white)
        }
        var decodeOptions = ImageDecodeOptions()
        decodeOptions.colorSpace = .preserve
        decodeOptions.firstFrameOnly = true
        return try AutoQualitySearch.byDSSIM(target: settings.target, allowedError: settings.allowedError, range: range,
                                             encode: encode) { data in
            let decoded = try coders.decode(data, options: decodeOptions).pixels
            guard decoded.size == reference.size else {
                throw WebImageError.encodingFailed(format: format, reason: "the \(format.rawValue) written decodes "
                                                   + "at \(decoded.size), not \(reference.size)")
            }
            return try DSSIM.dissimilarity(reference, decoded)
        }.data
    }
}
