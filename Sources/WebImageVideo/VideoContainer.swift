import CFFmpeg
import Foundation
import WebImageCore

/// A video container opened with libavformat from bytes in memory: only the given bytes are read (no protocol,
/// no file, no URL: every reference the container makes fails to open), only the demuxers of
/// ``VideoLimits/demuxers`` are tried, and probing reads at most ``VideoLimits/probeBytes``.
///
/// Use it inside ``open(_:limits:_:)``, which keeps the bytes alive and closes everything after `body`.
final class VideoContainer {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The best video stream (libavformat's choice), its index in ``context``.
    let videoStreamIndex: Int32

    private init(context: UnsafeMutablePointer<AVFormatContext>, videoStreamIndex: Int32) {
        self.context = context
        self.videoStreamIndex = videoStreamIndex
    }

    var videoStream: UnsafeMutablePointer<AVStream> { context.pointee.streams[Int(videoStreamIndex)]! }

    /// The demuxer's names ("mov,mp4,m4a,3gp,3g2,mj2"), what imgproxy's `/info` calls a video's formats.
    var demuxerName: String { String(cString: context.pointee.iformat.pointee.name) }

    /// The container's duration in seconds; nil when it does not say.
    var duration: Double? {
        let value = context.pointee.duration
        guard value != webimage_av_nopts_value(), value > 0 else { return nil }
        return Double(value) / Double(AV_TIME_BASE)
    }

    /// The video stream's mean time between key frames in seconds, from the container's index; nil when the
    /// index lists no key frame or the duration is unknown.
    var keyframeInterval: Double? {
        let stream = videoStream
        let entries = Int(avformat_index_get_entries_count(stream))
        let keyframes = (0..<entries).reduce(0) { count, index in
            guard let entry = avformat_index_get_entry(stream, Int32(index)) else { return count }
            return count + (entry.pointee.flags & AVINDEX_KEYFRAME != 0 ? 1 : 0)
        }
        guard keyframes > 0, let duration else { return nil }
        return duration / Double(keyframes)
    }

    /// Opens `data`, finds its streams and runs `body` on the container; errors are
    /// ``WebImageError/badImageData(_:)``.
    static func open<Result>(_ data: Data, limits: VideoLimits,
                             _ body: (VideoContainer) throws -> Result) throws -> Result {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            var input = webimage_memory_input(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              count: Int64(bytes.count), position: 0)
            return try withUnsafeMutablePointer(to: &input) { input in
                var io = webimage_memory_context(input, 64 << 10)
                defer { webimage_memory_context_free(&io) }
                guard let io, var context = avformat_alloc_context() else {
                    throw WebImageError.badImageData(.corrupt("out of memory opening the video"))
                }
                context.pointee.pb = io
                context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
                context.pointee.probesize = Int64(limits.probeBytes)
                context.pointee.max_analyze_duration = Int64(limits.analyzeMicroseconds)
                context.pointee.format_whitelist = av_strdup(limits.demuxers)
                context.pointee.protocol_whitelist = av_strdup("none")
                webimage_refuse_nested_input(context)
                var optional: UnsafeMutablePointer<AVFormatContext>? = context
                // On failure avformat_open_input frees the context (not the custom I/O).
                let opened = avformat_open_input(&optional, nil, nil, nil)
                guard opened >= 0, let open = optional else {
                    throw VideoError.failure("the video's container cannot be read", code: opened)
                }
                context = open
                defer { avformat_close_input(&optional) }
                // Probing decodes a frame of a stream whose parameters the container leaves out: the decoders it
                // opens refuse frames over the pixel limit before allocating them.
                let streams = Int(context.pointee.nb_streams)
                var options = [OpaquePointer?](repeating: nil, count: max(1, streams))
                for index in 0..<streams { av_dict_set(&options[index], "max_pixels", String(limits.maxPixels), 0) }
                defer { for index in 0..<streams { av_dict_free(&options[index]) } }
                let found = avformat_find_stream_info(context, &options)
                guard found >= 0 else { throw VideoError.failure("the video's streams cannot be read", code: found) }
                let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
                guard index >= 0 else {
                    throw WebImageError.badImageData(.corrupt("the file has no video stream"))
                }
                let container = VideoContainer(context: context, videoStreamIndex: index)
                let parameters = container.videoStream.pointee.codecpar.pointee
                guard parameters.width > 0, parameters.height > 0 else {
                    throw WebImageError.badImageData(.corrupt("the video stream's frame size cannot be read (over the "
                        + "pixel limit of \(limits.maxPixels), or damaged)"))
                }
                return try body(container)
            }
        }
    }
}

/// FFmpeg's failures as the library's errors.
enum VideoError {
    /// `what` with FFmpeg's message for `code`.
    static func failure(_ what: String, code: Int32) -> WebImageError {
        var text = [CChar](repeating: 0, count: 256)
        av_strerror(code, &text, text.count)
        let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .badImageData(.corrupt("\(what): \(reason)"))
    }
}
