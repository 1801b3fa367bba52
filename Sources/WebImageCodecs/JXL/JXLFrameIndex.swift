import CJXL
import Foundation
import WebImageCore

/// The displayed frames of an animated JPEG XL and their durations, from one pass over the frame headers
/// (libjxl decodes no pixels when only `JXL_DEC_FRAME` is subscribed).
///
/// The pass stops as soon as the options' frame-count or total-pixel budget is exceeded, so a file announcing
/// 100,000 frames costs at most ``ImageDecodeOptions/maxFrameCount`` + 1 headers before it is refused.
enum JXLFrameIndex {
    /// Each frame's duration in seconds; throws the animation-limit errors before any frame is decoded.
    static func durations(of data: Data, header: JXLHeader, options: ImageDecodeOptions) throws -> [Double] {
        let canvas = max(1, header.size.pixelCount)
        let budget = options.firstFrameOnly ? 1 : min(max(1, options.maxFrameCount),
                                                      max(1, options.maxAnimationPixelCount / canvas))
        let session = try JXLSession(events: [JXL_DEC_FRAME])
        var durations: [Double] = []
        try data.withUnsafeBytes { raw in
            session.setInput(raw)
            while durations.count <= budget {
                let status = session.process()
                if status == JXL_DEC_SUCCESS { break }
                guard status == JXL_DEC_FRAME else { throw JXLStatus.error(status, "frame headers") }
                var frame = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(session.decoder, &frame) == JXL_DEC_SUCCESS else {
                    throw WebImageError.badImageData(.corrupt("libjxl could not read frame \(durations.count)'s header"))
                }
                durations.append(Double(frame.duration) * header.secondsPerTick)
            }
        }
        guard !durations.isEmpty else { throw WebImageError.badImageData(.corrupt("the animation has no frames")) }
        if options.firstFrameOnly { return [durations[0]] }
        try options.checkAnimation(frameCount: durations.count, canvas: header.size)
        return durations
    }
}
