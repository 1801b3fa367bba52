import CWebP
import Foundation
import WebImageCore

/// libwebp encoder plumbing shared by still and animated encoding: configurations and pictures.
enum WebPEncoding {
    /// An encoder configuration: lossy at `quality` 0…100, or lossless with `quality` as the compression effort
    /// (lossless keeps the colour of fully transparent pixels too, so round trips are exact), or near-lossless
    /// with `quality` as the preprocessing level too (as libvips).
    ///
    /// `options` give the effort and the tuning. ``ImageEncodeEffort/fastest`` takes method 0 (no rate-distortion
    /// search: about half the time of the default method 4 at the same quality, for a larger file) and, lossless,
    /// libwebp's lowest lossless preset in place of the quality-as-effort (level 0: a few milliseconds where the
    /// default effort takes hundreds). The tuning's WebP method and preset, when set, replace the effort's method
    /// and libwebp's default preset; its smart subsampling turns on libwebp's sharp YUV conversion.
    static func makeConfig(quality: Float, options: ImageEncodeOptions) throws -> WebPConfig {
        let effort = options.resolvedEffort, tuning = options.tuning
        let compression = compression(options)
        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, preset(tuning.webpPreset), 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp encoder version mismatch")
        }
        config.quality = min(100, max(0, quality))
        if compression != .lossy { config.lossless = 1 }
        // libwebp 1.2 skips near-lossless preprocessing for an exact picture: only plain lossless is exact.
        if compression == .lossless { config.exact = 1 }
        if compression == .nearLossless { config.near_lossless = Int32(config.quality) }
        if tuning.webpSmartSubsample { config.use_sharp_yuv = 1 }
        if effort == .fastest {
            config.method = 0
            if compression != .lossy, WebPConfigLosslessPreset(&config, 0) == 0 {
                throw WebImageError.encodingFailed(format: .webp, reason: "libwebp rejected its lossless preset 0")
            }
        }
        if let method = tuning.webpMethod { config.method = Int32(method) }
        guard WebPValidateConfig(&config) != 0 else {
            throw WebImageError.encodingFailed(format: .webp, reason: "invalid encoder configuration")
        }
        return config
    }

    /// The compression `options` ask of WebP: the tuning's, else lossless or lossy as the options say.
    static func compression(_ options: ImageEncodeOptions) -> ImageEncodeTuning.WebPCompression {
        options.tuning.webpCompression ?? (options.lossless ? .lossless : .lossy)
    }

    private static func preset(_ preset: ImageEncodeTuning.WebPPreset?) -> WebPPreset {
        switch preset {
        case nil, .default: WEBP_PRESET_DEFAULT
        case .picture: WEBP_PRESET_PICTURE
        case .photo: WEBP_PRESET_PHOTO
        case .drawing: WEBP_PRESET_DRAWING
        case .icon: WEBP_PRESET_ICON
        case .text: WEBP_PRESET_TEXT
        }
    }

    /// Runs `body` with a libwebp picture holding `pixels` (8-bit RGBA), freed afterwards.
    ///
    /// With `argb` the picture stays ARGB (needed for lossless and by the animation encoder, which compares
    /// frames in ARGB); otherwise it is converted to YUV on import, as `cwebp` does for lossy stills.
    static func withPicture<R>(_ pixels: PixelBuffer, argb: Bool,
                               _ body: (UnsafeMutablePointer<WebPPicture>) throws -> R) throws -> R {
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp encoder version mismatch")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        picture.use_argb = argb ? 1 : 0
        let imported = pixels.withUnsafeBytes { raw in
            WebPPictureImportRGBA(&picture, raw.bindMemory(to: UInt8.self).baseAddress, Int32(pixels.bytesPerRow))
        }
        guard imported != 0 else { throw failure(picture.error_code) }
        return try body(&picture)
    }

    /// Encodes one still picture into WebP bytes.
    static func encode(_ pixels: PixelBuffer, config: WebPConfig) throws -> Data {
        // Sharp YUV is libwebp's own RGB→YUV conversion, done in WebPEncode: the picture stays ARGB for it.
        try withPicture(pixels, argb: config.lossless != 0 || config.use_sharp_yuv != 0) { picture in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            return try withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.pointee.writer = WebPMemoryWrite
                picture.pointee.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                if let context = CancellationHook.currentContext {
                    // libwebp calls the hook as it goes (per macroblock row lossy); 0 aborts with USER_ABORT.
                    picture.pointee.user_data = context
                    picture.pointee.progress_hook = { _, picture in
                        CancellationHook.poll(picture?.pointee.user_data) == 0 ? 1 : 0
                    }
                }
                var config = config
                guard WebPEncode(&config, picture) != 0, let bytes = writerPointer.pointee.mem else {
                    throw failure(picture.pointee.error_code)
                }
                return Data(bytes: bytes, count: writerPointer.pointee.size)
            }
        }
    }

    /// The typed error for a libwebp encoding error code.
    static func failure(_ code: WebPEncodingError) -> WebImageError {
        if code == VP8_ENC_ERROR_USER_ABORT { return .cancelled }
        let reason = switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: "dimensions are over WebP's 16383-pixel limit"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "the encoded file would exceed 4 GB"
        default: "libwebp encoding error \(code.rawValue)"
        }
        return .encodingFailed(format: .webp, reason: reason)
    }
}
