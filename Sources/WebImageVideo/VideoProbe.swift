import CFFmpeg
import Foundation
import WebImageCore

/// What a video's container and streams say, read without decoding a frame: the size and rotation of its video
/// stream, and what imgproxy Pro's `/info` reports (`video_meta`, `video_streams`).
public struct VideoProbe: Sendable, Hashable, Codable {
    /// The container as sniffed (MP4, MOV, WebM, Matroska, AVI).
    public var format: ImageFormat
    /// The demuxer's names, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var demuxer: String
    /// The video stream's coded frame size, before ``orientation``.
    public var pixelSize: PixelSize
    /// The rotation the stream's display matrix asks for, as an orientation (quarter turns only).
    public var orientation: ImageOrientation
    /// Seconds; nil when the container does not say.
    public var duration: Double?
    /// The container's metadata tags.
    public var metadata: [String: String]
    public var streams: [Stream]

    /// One stream of the container.
    public struct Stream: Sendable, Hashable, Codable {
        /// "video", "audio", "subtitle", "data" or "attachment".
        public var type: String
        public var codec: String
        public var duration: Double?
        /// Bits per second, when known.
        public var bitRate: Int?
        /// A video stream's average frame rate.
        public var framesPerSecond: Double?
        /// An audio stream's sample rate.
        public var sampleRate: Int?
        /// An audio stream's channel layout, e.g. "5.1(side)".
        public var channelLayout: String?
        /// The stream's `language` tag.
        public var language: String?
    }

    /// The header the video coder reports: the video stream's size and rotation, one frame, no alpha.
    public var header: ImageHeader {
        ImageHeader(format: format, pixelSize: pixelSize, orientation: orientation, hasAlpha: false)
    }

    init(_ container: VideoContainer, format: ImageFormat) {
        let video = container.videoStream
        let parameters = video.pointee.codecpar.pointee
        self.format = format
        demuxer = container.demuxerName
        pixelSize = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
        orientation = Self.orientation(video)
        duration = container.duration
        metadata = Self.tags(container.context.pointee.metadata)
        streams = (0..<Int(container.context.pointee.nb_streams)).compactMap { index in
            container.context.pointee.streams[index].map(Self.stream)
        }
    }

    /// The display matrix's rotation as the orientation that shows the frame upright (libavutil gives the
    /// angle counter-clockwise; `ffmpeg` turns the frame the other way).
    static func orientation(_ stream: UnsafeMutablePointer<AVStream>) -> ImageOrientation {
        guard let matrix = webimage_display_matrix(stream) else { return .up }
        let angle = -av_display_rotation_get(matrix)
        guard angle.isFinite else { return .up }
        let quarter = ((Int((angle / 90).rounded()) % 4) + 4) % 4
        return [.up, .right, .down, .left][quarter]
    }

    private static func stream(_ stream: UnsafeMutablePointer<AVStream>) -> Stream {
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = stream.pointee.time_base
        let duration = stream.pointee.duration == webimage_av_nopts_value() || timeBase.den == 0 ? nil
            : Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
        let type = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "unknown"
        var result = Stream(type: type,
                            codec: String(cString: avcodec_get_name(parameters.codec_id)), duration: duration,
                            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
                            language: tags(stream.pointee.metadata)["language"])
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            let rate = stream.pointee.avg_frame_rate
            result.framesPerSecond = rate.den > 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil
        case AVMEDIA_TYPE_AUDIO:
            result.sampleRate = parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil
            var text = [CChar](repeating: 0, count: 128)
            withUnsafePointer(to: stream.pointee.codecpar.pointee) { webimage_channel_layout_text($0, &text, text.count) }
            let layout = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            result.channelLayout = layout.isEmpty ? nil : layout
        default: break
        }
        return result
    }

    /// A dictionary's entries, at most 256 of at most 4 KiB each (the values are the file's own text).
    private static func tags(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while result.count < 256, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            let key = String(decoding: UnsafeRawBufferPointer(start: next.pointee.key, count: strnlen(next.pointee.key, 4096)), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(start: next.pointee.value, count: strnlen(next.pointee.value, 4096)), as: UTF8.self)
            result[key] = value
        }
        return result
    }
}
