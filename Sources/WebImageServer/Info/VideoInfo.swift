/// What a video source's container and streams say, as `/info`'s `video_meta` and `video_streams` give it.
///
/// The hook for video sources: ``ImageProxy/info(_:)`` passes the ``VideoInfo`` their reader makes (nil for
/// every image source, which then never has these fields) to ``InfoReader/answer(_:options:video:)``.
struct VideoInfo: Sendable, Equatable {
    /// The container's tags (`major_brand`, `creation_time`, …).
    var meta: [String: String]
    var streams: [VideoStreamInfo]
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
