extension ImageTransformers {
    /// Keeps one rectangle (points; × the image's scale in pixels), clipped to the image; nil when nothing
    /// of it lies inside. Key: `SDImageCroppingTransformer({x,y,w,h})`.
    public struct Crop: ImageTransforming {
        public var x, y, width, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        public var transformerKey: String {
            "SDImageCroppingTransformer({\(formatF(x)),\(formatF(y)),\(formatF(width)),\(formatF(height))})"
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            let s = image.scale
            let left = max(0, Int((x * s).rounded(.down))), top = max(0, Int((y * s).rounded(.down)))
            let right = min(image.pixelWidth, Int(((x + width) * s).rounded(.up)))
            let bottom = min(image.pixelHeight, Int(((y + height) * s).rounded(.up)))
            guard right > left, bottom > top, width.isFinite, height.isFinite else { return nil }
            let rect = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
            return mapFrames(of: image) { $0.cropped(to: rect) }
        }
    }
}
