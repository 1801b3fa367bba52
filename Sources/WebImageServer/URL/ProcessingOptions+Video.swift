extension ProcessingOptions {
    /// How each frame of a video sprite sheet or animation is sized (the arguments imgproxy Pro's
    /// `video_thumbnail_tile` and `video_thumbnail_animation` share).
    public struct VideoFrameLayout: Sendable, Hashable {
        /// The box each frame is resized into; 0 follows the frame's aspect from the other side, both 0 keep the
        /// frame's size.
        public var width: Int
        public var height: Int
        /// Extend each frame to the box on black. Default false.
        public var extend = false
        /// Leave out what the video's end leaves unused (tiles, or frames). Default false.
        public var trim = false
        /// Fill the box and crop around ``focusX``/``focusY`` instead of fitting. Default false.
        public var fill = false
        /// The crop's centre with ``fill``, 0–1 of the frame's width and height. Default 0.5 each.
        public var focusX = 0.5
        public var focusY = 0.5

        /// Reads `values` from `index` on: width, height, extend, trim, fill, focus x, focus y.
        init(_ arguments: OptionArguments, from index: Int) throws(ProxyError) {
            width = try arguments.dimension(arguments.values[index])
            height = try arguments.dimension(arguments.values[index + 1])
            try arguments.set(index + 2, &extend, arguments.boolean)
            try arguments.set(index + 3, &trim, arguments.boolean)
            try arguments.set(index + 4, &fill, arguments.boolean)
            try arguments.set(index + 5, &focusX) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
            try arguments.set(index + 6, &focusY) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
        }
    }

    /// imgproxy Pro's `video_thumbnail_tile`: a sprite sheet of `columns × rows` frames `step` seconds apart.
    public struct VideoTile: Sendable, Hashable {
        /// Seconds between frames; negative spreads the tiles over the whole video.
        public var step: Double
        public var columns: Int
        public var rows: Int
        public var layout: VideoFrameLayout
    }

    /// imgproxy Pro's `video_thumbnail_animation`: an animation of `frames` frames `step` seconds apart, each
    /// shown `delay` milliseconds.
    public struct VideoAnimation: Sendable, Hashable {
        public var step: Double
        public var delay: Int
        public var frames: Int
        public var layout: VideoFrameLayout
    }
}
