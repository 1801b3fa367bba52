extension ImageProxyConfiguration {
    /// imgproxy Pro's `best` format: the result encoded in each format that can hold it, the smallest answered.
    public struct BestFormat: Sendable, Hashable {
        /// Below this complexity (the mean luma step between neighbouring pixels, 0–255) a result is also tried
        /// losslessly (PNG, lossless WebP), beside the lossy formats (`IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD`).
        /// Default 5.5.
        public var complexityThreshold = 5.5
        /// Results of more megapixels than this are encoded once, in the format that usually wins, rather than in
        /// each (`IMGPROXY_BEST_FORMAT_MAX_RESOLUTION`); 0 (the default): no limit.
        public var maxMegapixels = 0.0
        /// Use `best` when the URL names no format (`IMGPROXY_BEST_FORMAT_BY_DEFAULT`). Default false.
        public var byDefault = false
        /// Let `best` answer SVG sources as SVG and `skip_processing` formats unprocessed
        /// (`IMGPROXY_BEST_FORMAT_ALLOW_SKIPS`). Default false: they are processed too.
        public var allowsSkips = false

        public init() {}
    }
}
