import CWebP
import Foundation
import WebImageCore

/// One-shot decode of a still WebP (lossy, lossless, with or without alpha) straight into a ``PixelBuffer``.
///
/// libwebp writes RGBA into our buffer (external memory), scaling during decode when the options ask for a
/// smaller size, so there is exactly one pass over the pixels. With default options the output is byte for
/// byte what `dwebp -pam` writes.
enum WebPStillDecoder {
    /// The raster is written into `store` (new storage or a caller's buffer).
    static func decode(_ data: Data, features: WebPBitstreamFeatures, store: inout RasterStore,
                       options: ImageDecodeOptions) throws -> Image {
        let source = features.pixelSize
        try options.checkPixelCount(width: source.width, height: source.height)
        let target = options.targetSize(forSource: source) ?? source
        var config = try makeConfig(source: source, target: target)
        let profile = data.withUnsafeBytes { WebPICCReader.profile(in: $0) }
        var color = ColorManagement.Outcome.none
        let pixels = try store.fill(width: target.width, height: target.height, format: .rgba8) { raw in
            attach(raw, to: &config.output, width: target.width)
            let status = data.withUnsafeBytes { bytes in
                WebPDecode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &config)
            }
            WebPFreeDecBuffer(&config.output)
            guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, "WebP decode") }
            color = ColorManagement.manage(raw, format: .rgba8, pixelCount: target.pixelCount, profile: profile,
                                           options: options)
        }
        let orientation = data.withUnsafeBytes { WebPOrientationReader.orientation(in: $0) }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: orientation, format: .webp,
                          hasAlpha: features.has_alpha != 0, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
        return options.finish(image, sourceSize: source)
    }

    /// A decoder configuration with libwebp's defaults, RGBA output, and scaling to `target` if it differs.
    static func makeConfig(source: PixelSize, target: PixelSize) throws -> WebPDecoderConfig {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            throw WebImageError.badImageData(.corrupt("libwebp decoder version mismatch"))
        }
        if target != source {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(target.width)
            config.options.scaled_height = Int32(target.height)
        }
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        return config
    }

    /// Points libwebp's output at `raw`: packed RGBA rows `width` pixels wide.
    static func attach(_ raw: UnsafeMutableRawBufferPointer, to output: inout WebPDecBuffer, width: Int) {
        output.u.RGBA.rgba = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
        output.u.RGBA.stride = Int32(width * 4)
        output.u.RGBA.size = raw.count
    }
}
