import Foundation

extension ImageTransformers {
    /// Gaussian blur whose standard deviation is ``radius`` (as SDWebImage's Core Image and vImage paths),
    /// approximated by three box passes each way, edges extended. Key: `SDImageBlurTransformer(R)`.
    public struct Blur: ImageTransforming {
        /// The Gaussian's standard deviation in points (× the image's scale in pixels); 0 leaves the image as
        /// it is.
        public var radius: Double

        public init(radius: Double) {
            self.radius = radius
        }

        public var transformerKey: String { "SDImageBlurTransformer(\(formatF(radius)))" }

        /// The three boxes the SVG/CSS filter specifications use for a Gaussian of standard deviation
        /// `radius × scale`: d = ⌊σ·3·√(2π)/4 + 0.5⌋; an odd d gives three centred boxes of d, an even d two
        /// boxes of d (centred half a pixel left, then right) and one centred box of d + 1.
        /// Each box is the window `lower...upper` of offsets around the output pixel.
        static func boxes(radius: Double, scale: Double) -> [ClosedRange<Int>] {
            let d = Int((radius * scale * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
            guard d > 1 else { return [] }
            let half = d / 2
            if d % 2 == 1 { return Array(repeating: -half...half, count: 3) }
            return [-half...(half - 1), (-half + 1)...half, -half...half]
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            guard radius.isFinite, radius > 0 else { return radius == 0 ? image : nil }
            let boxes = Self.boxes(radius: radius, scale: image.scale)
            guard !boxes.isEmpty else { return image.with(isTransformed: true) }
            let cancellation = WorkCancellation.current
            return mapFrames(of: image) { source in
                var raster = PremultipliedRaster(source)
                for box in boxes {
                    Self.boxPass(&raster.pixels, count: raster.width, lines: raster.height, step: 1, stride: raster.width,
                                 box: box, cancellation: cancellation)
                }
                for box in boxes {
                    Self.boxPass(&raster.pixels, count: raster.height, lines: raster.width, step: raster.width, stride: 1,
                                 box: box, cancellation: cancellation)
                }
                return raster.pixelBuffer()
            }
        }

        /// One running-sum box filter along every line (rows when `step` is 1, columns when it is the width).
        ///
        /// Under a cancelled ``WorkCancellation`` it stops within 16 lines, leaving the raster half blurred: the
        /// cancelled scope never hands the result on.
        private static func boxPass(_ pixels: inout [SIMD4<Float>], count: Int, lines: Int, step: Int, stride: Int,
                                    box: ClosedRange<Int>, cancellation: WorkCancellation?) {
            let weight = 1 / Float(box.count)
            var line = [SIMD4<Float>](repeating: .zero, count: count)
            for l in 0..<lines {
                if l % 16 == 0, cancellation?.shouldStop() == true { return }
                let base = l * stride
                for i in 0..<count { line[i] = pixels[base + i * step] }
                func at(_ i: Int) -> SIMD4<Float> { line[min(max(i, 0), count - 1)] }
                var sum = SIMD4<Float>.zero
                for i in box { sum += at(i) }
                for i in 0..<count {
                    pixels[base + i * step] = sum * weight
                    sum += at(i + box.upperBound + 1) - at(i + box.lowerBound)
                }
            }
        }
    }
}
