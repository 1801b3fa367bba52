import CJXL
import WebImageCore

/// One libjxl decoder with its own worker threads, set up the way every JPEG XL decode here wants it.
///
/// The orientation is kept (`JxlDecoderSetKeepOrientation`): pixels come out as stored and the orientation is
/// reported, so ``ImageDecodeOptions/applyOrientation`` turns them upright exactly once, as for JPEG, PNG and
/// WebP. Associated (premultiplied) alpha is unpremultiplied by libjxl, since ``PixelFormat`` is straight alpha.
/// Frames are coalesced (libjxl's default): each frame event is a displayed frame blended onto the canvas.
final class JXLSession {
    let decoder: OpaquePointer
    private let runner: UnsafeMutableRawPointer?

    /// A decoder reporting `events` (`JXL_DEC_*` values).
    init(events: [JxlDecoderStatus]) throws {
        guard let decoder = JxlDecoderCreate(nil) else {
            throw WebImageError.badImageData(.corrupt("libjxl could not create a decoder"))
        }
        self.decoder = decoder
        runner = JxlThreadParallelRunnerCreate(nil, JxlThreadParallelRunnerDefaultNumWorkerThreads())
        let wanted = events.reduce(0) { $0 | Int32(bitPattern: $1.rawValue) }
        guard runner.map({ JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, $0) }) ?? JXL_DEC_SUCCESS
                == JXL_DEC_SUCCESS,
              JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
              JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
              JxlDecoderSubscribeEvents(decoder, wanted) == JXL_DEC_SUCCESS else {
            JxlDecoderDestroy(decoder)
            if let runner { JxlThreadParallelRunnerDestroy(runner) }
            throw WebImageError.badImageData(.corrupt("libjxl rejected the decoder settings"))
        }
    }

    deinit {
        JxlDecoderDestroy(decoder)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
    }

    /// Hands libjxl `bytes`, which must stay valid until the next ``setInput(_:)`` or the session's end.
    func setInput(_ bytes: UnsafeRawBufferPointer) {
        JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Runs libjxl until it reports an event, needs a buffer or more input, or finishes.
    func process() -> JxlDecoderStatus {
        JxlDecoderProcessInput(decoder)
    }

    /// The image header, once `JXL_DEC_BASIC_INFO` was reported.
    func basicInfo() throws -> JxlBasicInfo {
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw WebImageError.badImageData(.corrupt("libjxl could not read the image header"))
        }
        return info
    }

    /// The ICC profile of the pixels libjxl outputs (its colour encoding made into ICC when the file has none),
    /// once `JXL_DEC_COLOR_ENCODING` was reported; nil when they are sRGB (or grey with sRGB's curve) or
    /// libjxl cannot give one.
    func dataProfile() -> [UInt8]? {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
           encoding.color_space == JXL_COLOR_SPACE_RGB || encoding.color_space == JXL_COLOR_SPACE_GRAY,
           encoding.white_point == JXL_WHITE_POINT_D65, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
           encoding.color_space == JXL_COLOR_SPACE_GRAY || encoding.primaries == JXL_PRIMARIES_SRGB {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size)
                == JXL_DEC_SUCCESS else { return nil }
        return profile
    }

    /// Points libjxl's output for the current frame at `raw` (rows of `format` pixels, no padding).
    func setOutput(_ raw: UnsafeMutableRawBufferPointer, format: PixelFormat) throws {
        var pixelFormat = JXLPixelLayout.jxlFormat(for: format, channels: 4)
        guard JxlDecoderSetImageOutBuffer(decoder, &pixelFormat, raw.baseAddress, raw.count) == JXL_DEC_SUCCESS else {
            throw WebImageError.badImageData(.corrupt("libjxl rejected the output buffer"))
        }
    }
}
