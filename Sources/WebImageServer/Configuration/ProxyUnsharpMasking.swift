extension ImageProxyConfiguration {
    /// imgproxy Pro's unsharp masking (``UnsharpMask``): when results are sharpened, and how much.
    public struct UnsharpMasking: Sendable, Hashable {
        /// When (`IMGPROXY_UNSHARP_MASKING_MODE`). Default ``Mode/none``, as imgproxy's open-source edition
        /// (imgproxy Pro's default is ``Mode/auto``).
        public var mode: Mode = .none
        /// How much the neighbours count (`IMGPROXY_UNSHARP_MASKING_WEIGHT`), above 0. Default 1.
        public var weight = 1.0
        /// What the sharpening is divided by (`IMGPROXY_UNSHARP_MASKING_DIVIDER`), above 0. Default 24.
        public var divider = 24.0

        public enum Mode: String, Sendable, Hashable, CaseIterable {
            /// Results made smaller, unless the URL asks for `sharpen`.
            case auto
            /// Never.
            case none
            /// Every result.
            case always
        }

        public init() {}

        /// Whether a result `downscaled` or not, with `sharpen` asked or not, is unsharp-masked.
        func applies(downscaled: Bool, sharpens: Bool) -> Bool {
            switch mode {
            case .none: false
            case .always: true
            case .auto: downscaled && !sharpens
            }
        }
    }
}
