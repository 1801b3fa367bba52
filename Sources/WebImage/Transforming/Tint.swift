extension ImageTransformers {
    /// Colours the image with a tint. Key: `SDImageTintTransformer(#aarrggbb,M)` with M Core Graphics'
    /// blend-mode number.
    public struct Tint: ImageTransforming {
        public enum BlendMode: Int, Sendable {
            /// The tint drawn over the whole image.
            case normal = 0
            /// The tint in the image's shape: colour from the tint, alpha tint × image (the default).
            case sourceIn = 18
            /// The tint drawn over the image where the image is, keeping the image's alpha.
            case sourceAtop = 20
        }

        public var color: RGBAColor
        public var blendMode: BlendMode

        public init(color: RGBAColor, blendMode: BlendMode = .sourceIn) {
            self.color = color
            self.blendMode = blendMode
        }

        public var transformerKey: String { "SDImageTintTransformer(\(color.keyHex),\(blendMode.rawValue))" }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            let tint = color.premultiplied
            return mapFrames(of: image, hasAlpha: image.hasAlpha || color.alpha < 255) { source in
                var raster = PremultipliedRaster(source)
                for i in raster.pixels.indices {
                    let d = raster.pixels[i]
                    switch blendMode {
                    case .normal: raster.pixels[i] = tint + d * (1 - tint.w)
                    case .sourceIn: raster.pixels[i] = tint * d.w
                    case .sourceAtop: raster.pixels[i] = tint * d.w + d * (1 - tint.w)
                    }
                }
                return raster.pixelBuffer()
            }
        }
    }
}
