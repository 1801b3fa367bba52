import CFFmpeg
import Foundation
import WebImageCore

/// Decodes frames of a container's video stream with libavcodec (one thread: the caller's), each checked
/// against the pixel limit before its decoder opens, and converts them to straight RGBA8 with libswscale in the
/// colours the stream declares (BT.601 or BT.709 matrix, limited or full range), as `ffmpeg` does.
final class VideoFrameDecoder {
    private let container: VideoContainer
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The latest frame decoded before the one asked for, kept undecoded-to-RGBA: only the frame returned is
    /// converted (converting each of a key frame's followers cost four times their decoding).
    private var held: UnsafeMutablePointer<AVFrame>?
    private var holds = false
    /// libswscale's context, reused while the frames keep their size and format.
    private var scaler: OpaquePointer?
    private let limits: VideoLimits
    private let maxPixelCount: Int

    init(_ container: VideoContainer, limits: VideoLimits, maxPixelCount: Int) throws {
        self.container = container
        self.limits = limits
        self.maxPixelCount = maxPixelCount
        let parameters = container.videoStream.pointee.codecpar!
        try Self.check(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height), limit: maxPixelCount)
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw WebImageError.badImageData(.corrupt("the video's codec \(name) has no decoder here"))
        }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        held = av_frame_alloc()
        guard let codec, packet != nil, frame != nil, held != nil else {
            throw WebImageError.badImageData(.corrupt("out of memory opening the video's decoder"))
        }
        var status = avcodec_parameters_to_context(codec, parameters)
        guard status >= 0 else { throw VideoError.failure("the video's decoder cannot be set up", code: status) }
        codec.pointee.thread_count = 1
        codec.pointee.max_pixels = Int64(min(maxPixelCount, Int(Int64.max)))
        codec.pointee.pkt_timebase = container.videoStream.pointee.time_base
        status = avcodec_open2(codec, decoder, nil)
        guard status >= 0 else { throw VideoError.failure("the video's decoder cannot open", code: status) }
    }

    deinit {
        avcodec_free_context(&codec)
        av_packet_free(&packet)
        av_frame_free(&frame)
        av_frame_free(&held)
        sws_freeContext(scaler)
    }

    /// The frame shown at `second` (the first whose time is at or after it), or with `keyframes` the key frame
    /// at or before it; the last frame when the video ends before `second`.
    func frame(at second: Double, keyframes: Bool) throws -> PixelBuffer {
        let stream = container.videoStream
        let timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time == webimage_av_nopts_value() ? 0 : stream.pointee.start_time
        // The first tick at or after `second` (a frame at tick t shows at t × time base), with a hair of slack
        // for the division's rounding; seeking goes back to the key frame before it.
        let ticks = max(0, second) * Double(timeBase.den) / Double(max(1, timeBase.num))
        let target = timeBase.den > 0 && timeBase.num > 0 && ticks < 1e15 ? start + Int64((ticks - 1e-6).rounded(.up)) : start
        // A file that cannot seek is read from its start.
        if av_seek_frame(container.context, container.videoStreamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 {
            avcodec_flush_buffers(codec)
        }
        av_frame_unref(held)
        holds = false
        var packets = 0
        while true {
            try WorkCancellation.checkCurrent()
            let read = av_read_frame(container.context, packet)
            if read < 0 { break }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == container.videoStreamIndex else { continue }
            packets += 1
            guard packets <= limits.maxPackets else {
                throw WebImageError.badImageData(.corrupt("no frame within \(limits.maxPackets) packets of the video"))
            }
            // A damaged packet is skipped, as players do; the next key frame recovers.
            guard avcodec_send_packet(codec, packet) >= 0 else { continue }
            if let found = try receive(target: target, keyframes: keyframes) { return found }
        }
        _ = avcodec_send_packet(codec, nil)
        if let found = try receive(target: target, keyframes: keyframes) { return found }
        guard holds, let held else { throw WebImageError.badImageData(.corrupt("the video has no decodable frame")) }
        return try converted(held)
    }

    /// Takes the frames the decoder has ready: the one asked for, converted, or nil with the latest held.
    private func receive(target: Int64, keyframes: Bool) throws -> PixelBuffer? {
        while avcodec_receive_frame(codec, frame) >= 0 {
            let time = frame!.pointee.best_effort_timestamp
            if keyframes || time == webimage_av_nopts_value() || time >= target {
                defer { av_frame_unref(frame) }
                return try converted(frame!)
            }
            av_frame_unref(held)
            av_frame_move_ref(held, frame)
            holds = true
        }
        return nil
    }

    /// The frame as straight RGBA8, its size checked first (a stream may change size midway).
    private func converted(_ frame: UnsafeMutablePointer<AVFrame>) throws -> PixelBuffer {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        try Self.check(width: width, height: height, limit: maxPixelCount)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        scaler = sws_getCachedContext(scaler, frame.pointee.width, frame.pointee.height, format, frame.pointee.width,
                                      frame.pointee.height, AV_PIX_FMT_RGBA,
                                      Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        guard let scaler else {
            throw WebImageError.badImageData(.corrupt("the video's pixel format cannot be converted"))
        }
        let matrix = frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED
            ? (height >= 720 ? SWS_CS_ITU709 : SWS_CS_DEFAULT) : Int32(frame.pointee.colorspace.rawValue)
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let coefficients = sws_getCoefficients(matrix)
        _ = sws_setColorspaceDetails(scaler, coefficients, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                     0, 1 << 16, 1 << 16)
        return try PixelBuffer(width: width, height: height) { bytes in
            var destination: [UnsafeMutablePointer<UInt8>?] = [bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            let rows = withUnsafePointer(to: &frame.pointee.data) { data in
                withUnsafePointer(to: &frame.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            sws_scale(scaler, planes, sizes, 0, Int32(height), &destination, &strides)
                        }
                    }
                }
            }
            guard rows == Int32(height) else {
                throw WebImageError.badImageData(.corrupt("the video frame could not be converted"))
            }
        }
    }

    static func check(width: Int, height: Int, limit: Int) throws {
        guard width > 0, height > 0 else {
            throw WebImageError.badImageData(.corrupt("the video stream has no size"))
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limit else {
            throw WebImageError.badImageData(.tooManyPixels(width: width, height: height, limit: limit))
        }
    }
}
