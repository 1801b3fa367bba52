import WebImage

extension ProcessingOptions {
    /// imgproxy Pro's watermark options: which image `watermark` draws and how it is prepared first.
    public struct WatermarkImage: Sendable, Hashable {
        /// The image's URL (`watermark_url`), fetched under the sources' policy and limits and cached as a
        /// source. Default nil: the operator's image.
        public var url: String?
        /// Pango markup drawn as the watermark (`watermark_text`); it wins over ``url``. Default nil.
        public var text: String?
        /// The box the watermark is fitted into, enlarging allowed, when `watermark`'s scale is 0
        /// (`watermark_size`); a side of 0 follows the aspect ratio. Default 0×0: its own size.
        public var width = 0
        public var height = 0
        /// Clockwise degrees the watermark is turned by (`watermark_rotate`). Default 0.
        public var rotation = 0.0
        /// The standard deviation of the blur of its shadow (`watermark_shadow`); 0 (the default): no shadow.
        public var shadow = 0.0

        public init() {}
    }
}
