import WebImage

extension ImageProxyConfiguration {
    /// imgproxy Pro's autoquality: the quality of a lossy still result chosen per image, by its encoded size or
    /// by how unlike the result it decodes (``DSSIM``), within a range. Each result is encoded several times
    /// (at most about log₂ of the range plus two). Every default is imgproxy's.
    public struct AutoQuality: Sendable, Hashable {
        /// How the quality is chosen (imgproxy's `IMGPROXY_AUTOQUALITY_METHOD`). Default ``Method/none``: not.
        public var method: Method = .none
        /// The size in bytes (``Method/size``) or the DSSIM (``Method/dssim``) aimed at
        /// (`IMGPROXY_AUTOQUALITY_TARGET`). Default 0.02.
        public var target = 0.02
        /// The lowest quality chosen (`IMGPROXY_AUTOQUALITY_MIN`). Default 70.
        public var minQuality = 70
        /// The lowest quality per format, before ``minQuality`` (`IMGPROXY_AUTOQUALITY_FORMAT_MIN`). Default AVIF 60.
        public var formatMinQuality: [ImageFormat: Int] = [.avif: 60]
        /// The highest quality chosen (`IMGPROXY_AUTOQUALITY_MAX`). Default 80.
        public var maxQuality = 80
        /// The highest quality per format, before ``maxQuality`` (`IMGPROXY_AUTOQUALITY_FORMAT_MAX`). Default
        /// AVIF 65.
        public var formatMaxQuality: [ImageFormat: Int] = [.avif: 65]
        /// How far from ``target`` a DSSIM may be and still end the search (`IMGPROXY_AUTOQUALITY_ALLOWED_ERROR`).
        /// Default 0.002.
        public var allowedError = 0.002
        /// Results of more megapixels than this get the usual quality (`IMGPROXY_AUTOQUALITY_MAX_RESOLUTION`);
        /// 0 (the default): no limit.
        public var maxMegapixels = 0.0

        /// imgproxy's methods but `ml`, which needs a neural network model.
        public enum Method: String, Sendable, Hashable, CaseIterable {
            case none, size, dssim
        }

        public init() {}

        /// The quality range for `format`.
        package func range(for format: ImageFormat) -> ClosedRange<Int> {
            let low = formatMinQuality[format] ?? minQuality, high = formatMaxQuality[format] ?? maxQuality
            return min(low, high)...max(low, high)
        }

        /// The settings in the result key (empty when off).
        var keyComponent: String {
            guard method != .none else { return "" }
            let byFormat = { (table: [ImageFormat: Int]) in
                table.map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: ",")
            }
            return ";aq\(method.rawValue),\(target),\(minQuality),\(byFormat(formatMinQuality)),\(maxQuality),"
                + "\(byFormat(formatMaxQuality)),\(allowedError),\(maxMegapixels)"
        }
    }
}
