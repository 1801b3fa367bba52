extension ImageTransformers {
    /// Mirrors horizontally and/or vertically. Key: `SDImageFlippingTransformer(H,V)`.
    public struct Flip: ImageTransforming {
        public var horizontal: Bool
        public var vertical: Bool

        public init(horizontal: Bool, vertical: Bool) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        public var transformerKey: String {
            "SDImageFlippingTransformer(\(horizontal ? 1 : 0),\(vertical ? 1 : 0))"
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            mapFrames(of: image) { source in
                PixelBuffer(width: source.width, height: source.height) { out in
                    source.withUnsafeBytes { src in
                        for y in 0..<source.height {
                            let sy = vertical ? source.height - 1 - y : y
                            for x in 0..<source.width {
                                let sx = horizontal ? source.width - 1 - x : x
                                let s = (sy * source.width + sx) * 4, o = (y * source.width + x) * 4
                                for c in 0..<4 { out[o + c] = src[s + c] }
                            }
                        }
                    }
                }
            }
        }
    }
}
