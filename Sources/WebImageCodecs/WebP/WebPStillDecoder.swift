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
            let status = try data.withUnsafeBytes { bytes in try run(bytes, config: &config) }
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

    /// libwebp's one-shot decode, which has no hook to stop it. Under a cancellation scope the same decode runs
    /// with the incremental decoder over longer and longer prefixes of the bytes (read in place) instead, and the
    /// token is polled between them: every ``cancellationStep`` bytes, a few milliseconds of decoding (lossless
    /// files may be decoded only once their whole image data is there: libwebp's granularity).
    private static func run(_ bytes: UnsafeRawBufferPointer, config: inout WebPDecoderConfig) throws -> VP8StatusCode {
        let base = bytes.bindMemory(to: UInt8.self).baseAddress
        guard let cancellation = WorkCancellation.current else { return WebPDecode(base, bytes.count, &config) }
        return try withUnsafeMutablePointer(to: &config) { config in
            guard let decoder = WebPIDecode(nil, 0, config) else {
                throw WebImageError.badImageData(.corrupt("libwebp could not start an incremental decoder"))
            }
            defer { WebPIDelete(decoder) }
            var given = 0
            while true {
                try cancellation.check()
                given = min(bytes.count, given + cancellationStep)
                let status = WebPIUpdate(decoder, base, given)
                guard status == VP8_STATUS_SUSPENDED else { return status }
                if given == bytes.count { return VP8_STATUS_NOT_ENOUGH_DATA }
            }
        }
    }

    /// Bytes fed between two cancellation checks.
    static let cancellationStep = 32 << 10

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
