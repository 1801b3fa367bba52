import WebImage

extension ProcessingOptions {
    /// imgproxy Pro's `crop_aspect_ratio`: the `crop` area's size brought to an aspect ratio, its gravity as it
    /// was.
    public struct CropAspectRatio: Sendable, Hashable {
        /// Width over height, above 0.
        public var ratio: Double
        /// Grow the area to the ratio rather than shrink it (then shrunk, keeping the ratio, where it outgrows
        /// the image). Default false.
        public var enlarges = false

        public init(ratio: Double, enlarges: Bool = false) {
            self.ratio = ratio
            self.enlarges = enlarges
        }

        /// `size` at this ratio: one side shortened, or with `enlarges` one side lengthened, then both fitted
        /// into `bounds`; each side at least 1 pixel.
        func corrected(_ size: PixelSize, within bounds: PixelSize) -> PixelSize {
            let (width, height) = (Double(size.width), Double(size.height))
            var target = (width, height)
            if width / height > ratio {
                target = enlarges ? (width, width / ratio) : (height * ratio, height)
            } else if width / height < ratio {
                target = enlarges ? (height * ratio, height) : (width, width / ratio)
            }
            let fit = min(1, Double(bounds.width) / target.0, Double(bounds.height) / target.1)
            return PixelSize(width: max(1, Int((target.0 * fit).rounded())),
                             height: max(1, Int((target.1 * fit).rounded())))
        }
    }
}
