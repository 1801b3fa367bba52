extension ImageProxyConfiguration {
    /// Bounds on what a source may be and what a result may become.
    public struct Limits: Sendable {
        /// The largest source body accepted, enforced while it streams in (a larger one stops the download:
        /// 422). Default 50 MB.
        public var maxSourceBytes: Int
        /// The largest source resolution, in pixels, read from the header before decoding (larger: 422).
        /// Default 50,000,000 (50 MP).
        public var maxSourcePixels: Int
        /// The largest width or height of a result; a larger result is scaled down to fit. Default 8,192.
        public var maxOutputSide: Int
        /// The most pixels a result may have; a larger result is scaled down to fit. It bounds a worker's
        /// memory (a blur works on 16 bytes a pixel). Default 16,777,216 (4096 × 4096).
        public var maxOutputPixels: Int
        /// The frames of an animation processed, the first ones (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES`);
        /// 1 makes every animation a still. Default 1, as imgproxy.
        public var maxAnimationFrames = 1
        /// The most pixels one frame of an animation may have (imgproxy's
        /// `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`); 0 counts all the frames processed together against
        /// ``maxSourcePixels`` instead. Default 0, as imgproxy.
        public var maxAnimationFramePixels = 0
        /// Accept imgproxy's per-URL security options (`max_src_resolution`, `max_src_file_size`,
        /// `max_animation_frames`, `max_animation_frame_resolution`, `max_result_dimension`), which can only
        /// lower these limits; refused with 400 otherwise. Default false.
        public var allowsSecurityOptions = false

        public init(maxSourceBytes: Int = 50_000_000, maxSourcePixels: Int = 50_000_000, maxOutputSide: Int = 8192,
                    maxOutputPixels: Int = 16_777_216) {
            self.maxSourceBytes = maxSourceBytes
            self.maxSourcePixels = maxSourcePixels
            self.maxOutputSide = maxOutputSide
            self.maxOutputPixels = maxOutputPixels
        }
    }

    /// How long the parts of a request may take.
    public struct Timeouts: Sendable {
        /// The most a whole source download may take, however steadily its bytes arrive (then 504). Default 5 s.
        public var download: Duration
        /// The most a source may stay silent while connecting or sending (then 504). Default 3 s.
        public var downloadIdle: Duration
        /// The most a request may take from its arrival to its answer: the wait for a worker, the download and
        /// the processing (then 503), as imgproxy's `IMGPROXY_TIMEOUT`. Default 10 s.
        public var processing: Duration

        public init(download: Duration = .seconds(5), downloadIdle: Duration = .seconds(3),
                    processing: Duration = .seconds(10)) {
            self.download = download
            self.downloadIdle = downloadIdle
            self.processing = processing
        }
    }
}
