import Foundation
import WebImageVideo

extension ImageProxyConfiguration {
    /// Video sources (MP4 and MOV, WebM and Matroska, AVI), made into a poster frame as imgproxy Pro makes video
    /// thumbnails: each probe and frame in a child process (``child``) whose memory and CPU the kernel bounds and
    /// which is killed at the processing deadline, reading the video through a pipe and opening nothing itself.
    public struct VideoThumbnails: Sendable {
        /// The frame's time in seconds, when the URL gives no `video_thumbnail_second`
        /// (`IMGPROXY_VIDEO_THUMBNAIL_SECOND`); a shorter video gives its last frame. Default 1.
        public var second: Double
        /// Take the key frame at or before ``second`` instead of the exact frame, when the URL gives no
        /// `video_thumbnail_keyframes` (`IMGPROXY_VIDEO_THUMBNAIL_KEYFRAMES`). Default false.
        public var keyframes: Bool
        /// Take key frames only for a sprite sheet or animation whose step reaches the video's mean key frame
        /// interval (`IMGPROXY_VIDEO_THUMBNAIL_TILE_AUTO_KEYFRAMES`). Default false.
        public var tileAutoKeyframes: Bool
        /// The most bytes read to find a video's streams (`IMGPROXY_VIDEO_THUMBNAIL_PROBE_SIZE`). Default 5,000,000.
        public var probeBytes: Int
        /// The most stream time analysed to find the streams' parameters, in milliseconds; 0 lets FFmpeg decide
        /// (`IMGPROXY_VIDEO_THUMBNAIL_MAX_ANALYZE_DURATION`). Default 0.
        public var maxAnalyzeMilliseconds: Int
        /// The child processes videos are read in. Default: this executable with `video-frame`, 256 MiB besides
        /// the video and the frame, 30 s of CPU; the processing timeout is its time limit.
        public var child: VideoChildProcess

        public init(second: Double = 1, keyframes: Bool = false, tileAutoKeyframes: Bool = false,
                    probeBytes: Int = 5_000_000, maxAnalyzeMilliseconds: Int = 0,
                    child: VideoChildProcess = VideoChildProcess()) {
            self.second = second
            self.keyframes = keyframes
            self.tileAutoKeyframes = tileAutoKeyframes
            self.probeBytes = probeBytes
            self.maxAnalyzeMilliseconds = maxAnalyzeMilliseconds
            self.child = child
        }

        /// The coder the service reads videos with, its children killed after `timeLimit`, no frame over
        /// `maxPixels` decoded.
        func coder(timeLimit: Duration, maxPixels: Int) -> VideoThumbnailCoder {
            var child = child
            child.timeLimit = timeLimit
            return VideoThumbnailCoder(limits: VideoLimits(probeBytes: probeBytes,
                                                           analyzeMicroseconds: maxAnalyzeMilliseconds * 1000,
                                                           maxPixels: maxPixels),
                                       childProcess: child)
        }
    }
}
