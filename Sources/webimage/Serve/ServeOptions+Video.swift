extension ServeOptions {
    /// Video sources (imgproxy Pro's video thumbnails), and the child processes (`webimage video-frame`) they are
    /// read in.
    static let video: [ServeOption] = [
        .toggle("video-thumbnails", ["WEBIMAGE_VIDEO_THUMBNAILS", "IMGPROXY_ENABLE_VIDEO_THUMBNAILS"],
                "Read video sources (MP4, MOV, WebM, Matroska, AVI) into a poster frame, each in a child process "
                    + "(webimage video-frame) killed at the processing timeout and held to --video-memory-bytes and "
                    + "--video-cpu-seconds. Default off: video sources are refused with 422.",
                field: "configuration.processing.readsVideo", \.configuration.processing.readsVideo),
        .decimal("video-thumbnail-second", ["WEBIMAGE_VIDEO_THUMBNAIL_SECOND", "IMGPROXY_VIDEO_THUMBNAIL_SECOND"],
                 "The time in seconds of a video's frame when the URL gives no video_thumbnail_second (a shorter "
                    + "video gives its last frame).",
                 field: "configuration.processing.videoThumbnails.second",
                 \.configuration.processing.videoThumbnails.second, range: 0...1e7),
        .toggle("video-thumbnail-keyframes", ["WEBIMAGE_VIDEO_THUMBNAIL_KEYFRAMES", "IMGPROXY_VIDEO_THUMBNAIL_KEYFRAMES"],
                "Take the key frame at or before that second (faster, less exact) when the URL gives no "
                    + "video_thumbnail_keyframes. Default off.",
                field: "configuration.processing.videoThumbnails.keyframes",
                \.configuration.processing.videoThumbnails.keyframes),
        .toggle("video-thumbnail-tile-auto-keyframes",
                ["WEBIMAGE_VIDEO_THUMBNAIL_TILE_AUTO_KEYFRAMES", "IMGPROXY_VIDEO_THUMBNAIL_TILE_AUTO_KEYFRAMES"],
                "Take key frames only for a sprite sheet or animation whose step reaches the video's mean key frame "
                    + "interval. Default off.",
                field: "configuration.processing.videoThumbnails.tileAutoKeyframes",
                \.configuration.processing.videoThumbnails.tileAutoKeyframes),
        .number("video-thumbnail-probe-size", ["WEBIMAGE_VIDEO_THUMBNAIL_PROBE_SIZE", "IMGPROXY_VIDEO_THUMBNAIL_PROBE_SIZE"],
                "The most bytes read to find a video's streams.",
                field: "configuration.processing.videoThumbnails.probeBytes",
                \.configuration.processing.videoThumbnails.probeBytes, minimum: 32),
        .number("video-thumbnail-max-analyze-duration",
                ["WEBIMAGE_VIDEO_THUMBNAIL_MAX_ANALYZE_DURATION", "IMGPROXY_VIDEO_THUMBNAIL_MAX_ANALYZE_DURATION"],
                "The most stream time, in milliseconds, analysed to find a video's streams; 0 lets FFmpeg decide.",
                field: "configuration.processing.videoThumbnails.maxAnalyzeMilliseconds",
                \.configuration.processing.videoThumbnails.maxAnalyzeMilliseconds, minimum: 0, maximum: 86_400_000),
        .number("video-memory-bytes", ["WEBIMAGE_VIDEO_MEMORY_BYTES"],
                "Bytes of data a video child may allocate besides the video and its frame (RLIMIT_DATA; more: the "
                    + "video is a 422).",
                field: "configuration.processing.videoThumbnails.child.memoryAllowance",
                \.configuration.processing.videoThumbnails.child.memoryAllowance, minimum: 16 << 20),
        .number("video-cpu-seconds", ["WEBIMAGE_VIDEO_CPU_SECONDS"],
                "Seconds of CPU a video child may use (RLIMIT_CPU; more: the video is a 422); the processing timeout "
                    + "kills it sooner.",
                field: "configuration.processing.videoThumbnails.child.cpuSeconds",
                \.configuration.processing.videoThumbnails.child.cpuSeconds, maximum: 86_400),
    ]
}
