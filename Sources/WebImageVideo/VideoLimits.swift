/// What reading a video may cost: imgproxy Pro's probe settings, and bounds no file can push the decoder past.
public struct VideoLimits: Sendable, Hashable, Codable {
    /// The most bytes read to find the container's streams (`IMGPROXY_VIDEO_THUMBNAIL_PROBE_SIZE`). Default
    /// 5,000,000.
    public var probeBytes: Int
    /// The most stream time analysed to find the streams' parameters, in microseconds
    /// (`IMGPROXY_VIDEO_THUMBNAIL_MAX_ANALYZE_DURATION`, which is in milliseconds); 0 lets libavformat decide.
    /// Default 0.
    public var analyzeMicroseconds: Int
    /// The most packets read for one frame (past a seek point to the frame asked for): a bound on a stream that
    /// never reaches the time asked for. Default 100,000.
    public var maxPackets: Int
    /// The most pixels a frame may have while a video is probed (FFmpeg's `max_pixels`; a decode's own limit is
    /// its options' `maxPixelCount`). Default 100,000,000.
    public var maxPixels: Int
    /// The demuxers tried, libavformat's names: MP4/MOV, Matroska/WebM and AVI. Default `"mov,matroska,avi"`.
    public var demuxers: String

    public init(probeBytes: Int = 5_000_000, analyzeMicroseconds: Int = 0, maxPackets: Int = 100_000,
                maxPixels: Int = 100_000_000, demuxers: String = "mov,matroska,avi") {
        self.maxPixels = maxPixels
        self.probeBytes = probeBytes
        self.analyzeMicroseconds = analyzeMicroseconds
        self.maxPackets = maxPackets
        self.demuxers = demuxers
    }
}
