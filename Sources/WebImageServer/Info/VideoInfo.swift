import Foundation
import WebImage
import WebImageVideo

/// What a video source's container and streams say, as `/info`'s `format`, `video_meta` and `video_streams` give
/// it (image sources never have these fields).
struct VideoInfo: Sendable, Equatable {
    /// The container's formats as FFmpeg's demuxer names them (`mov,mp4,m4a,3gp,3g2,mj2`): imgproxy's list.
    var formats: String
    /// The container's tags (`major_brand`, `creation_time`, …).
    var meta: [String: String]
    var streams: [VideoStreamInfo]

    /// The probe of `data` by the video coder among `coders` (in its child process).
    init(probing data: Data, with coders: CodersManager) throws(ProxyError) {
        guard let coder = coders.videoCoder else {
            throw ImageProcessor.videoSourcesOff
        }
        let probe: VideoProbe
        do {
            probe = try coder.probe(data)
        } catch {
            throw .unprocessable("the video cannot be read: \(error)")
        }
        formats = probe.demuxer
        meta = probe.metadata
        streams = probe.streams.map {
            VideoStreamInfo(type: $0.type, codec: $0.codec, duration: $0.duration, bps: $0.bitRate,
                            fps: $0.framesPerSecond, frequency: $0.sampleRate, layout: $0.channelLayout,
                            language: $0.language)
        }
    }
}

/// One stream of a video, the fields its type has (imgproxy Pro's shape).
struct VideoStreamInfo: Encodable, Sendable, Equatable {
    /// `video`, `audio` or `subtitle`.
    var type: String
    var codec: String
    /// Seconds.
    var duration: Double?
    /// Bits per second.
    var bps: Int?
    /// Frames per second (video).
    var fps: Double?
    /// Samples per second (audio).
    var frequency: Int?
    /// The channel layout (audio), as FFmpeg names it (`5.1(side)`).
    var layout: String?
    var language: String?
}
