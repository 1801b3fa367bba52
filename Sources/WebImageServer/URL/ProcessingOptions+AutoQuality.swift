import WebImage

extension ProcessingOptions {
    /// imgproxy Pro's `autoquality`: the service's autoquality settings replaced for this URL, each argument
    /// given (nil keeps the service's). A range given here holds for every format.
    public struct AutoQuality: Sendable, Hashable {
        public var method: ImageProxyConfiguration.AutoQuality.Method?
        public var target: Double?
        public var minQuality: Int?
        public var maxQuality: Int?
        public var allowedError: Double?

        public init(method: ImageProxyConfiguration.AutoQuality.Method? = nil, target: Double? = nil,
                    minQuality: Int? = nil, maxQuality: Int? = nil, allowedError: Double? = nil) {
            self.method = method
            self.target = target
            self.minQuality = minQuality
            self.maxQuality = maxQuality
            self.allowedError = allowedError
        }

        /// `settings` with this URL's arguments applied.
        func applied(to settings: ImageProxyConfiguration.AutoQuality) -> ImageProxyConfiguration.AutoQuality {
            var settings = settings
            if let method { settings.method = method }
            if let target { settings.target = target }
            if let minQuality {
                settings.minQuality = minQuality
                settings.formatMinQuality = [:]
            }
            if let maxQuality {
                settings.maxQuality = maxQuality
                settings.formatMaxQuality = [:]
            }
            if let allowedError { settings.allowedError = allowedError }
            return settings
        }
    }
}
