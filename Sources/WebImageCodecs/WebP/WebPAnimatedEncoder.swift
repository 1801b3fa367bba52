import CWebP
import Foundation
import WebImageCore

/// Encodes every frame of an animation with libwebp's `WebPAnimEncoder`, which stores only the changed
/// rectangle of each frame and picks the blend and dispose methods itself.
enum WebPAnimatedEncoder {
    /// Frames must share one size; durations are written in whole milliseconds and the loop count in the
    /// ANIM chunk (0 = forever).
    static func encode(_ frames: [ImageFrame], loopCount: Int, options: ImageEncodeOptions) throws -> Data {
        let size = frames[0].pixels.size
        guard frames.allSatisfy({ $0.pixels.size == size }) else {
            throw WebImageError.encodingFailed(format: .webp, reason: "animation frames differ in size")
        }
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&encoderOptions, WEBP_MUX_ABI_VERSION) != 0 else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp mux version mismatch")
        }
        encoderOptions.anim_params.loop_count = Int32(clamping: max(0, loopCount))
        guard let encoder = WebPAnimEncoderNewInternal(Int32(size.width), Int32(size.height), &encoderOptions,
                                                       WEBP_MUX_ABI_VERSION) else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp could not start an animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var config = try WebPEncoding.makeConfig(quality: Float(options.quality * 100), options: options)
        var timestamp = 0
        let cancellation = WorkCancellation.current
        for frame in frames {
            // libwebp's animation encoder copies each frame into pictures of its own, so our picture's progress
            // hook never runs: the token is polled between frames.
            try cancellation?.check()
            try WebPEncoding.withPicture(frame.pixels, argb: true) { picture in
                guard WebPAnimEncoderAdd(encoder, picture, Int32(clamping: timestamp), &config) != 0 else {
                    throw failure(encoder)
                }
            }
            timestamp += Int((max(0, frame.duration) * 1000).rounded())
        }
        var assembled = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0,
              WebPAnimEncoderAssemble(encoder, &assembled) != 0, let bytes = assembled.bytes else {
            throw failure(encoder)
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: assembled.size)
    }

    private static func failure(_ encoder: OpaquePointer) -> WebImageError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return .encodingFailed(format: .webp, reason: "animation: \(message)")
    }
}
