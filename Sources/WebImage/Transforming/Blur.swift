import Foundation

extension ImageTransformers {
    /// Gaussian blur approximated by three box passes each way (as SDWebImage does with vImage), edges
    /// extended. Key: `SDImageBlurTransformer(R)`.
    public struct Blur: ImageTransforming {
        /// The blur radius in points (× the image's scale in pixels); 0 leaves the image as it is.
        public var radius: Double

        public init(radius: Double) {
            self.radius = radius
        }

        public var transformerKey: String { "SDImageBlurTransformer(\(formatF(radius)))" }

        /// The box size SDWebImage derives from the radius: odd, ≈ σ·3·√(2π)/4.
        static func boxSize(radius: Double, scale: Double) -> Int {
            let input = radius * scale
            return Int(((input * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5) / 2).rounded(.down)) | 1
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            guard radius.isFinite, radius > 0 else { return radius == 0 ? image : nil }
            let box = Self.boxSize(radius: radius, scale: image.scale)
            guard box > 1 else { return image.with(isTransformed: true) }
            return mapFrames(of: image) { source in
                var raster = PremultipliedRaster(source)
                for _ in 0..<3 {
                    Self.boxPass(&raster.pixels, count: raster.width, lines: raster.height, step: 1, stride: raster.width, box: box)
                    Self.boxPass(&raster.pixels, count: raster.height, lines: raster.width, step: raster.width, stride: 1, box: box)
                }
                return raster.pixelBuffer()
            }
        }

        /// One running-sum box filter along every line (rows when `step` is 1, columns when it is the width).
        private static func boxPass(_ pixels: inout [SIMD4<Float>], count: Int, lines: Int, step: Int, stride: Int, box: Int) {
            let half = box / 2
            let weight = 1 / Float(box)
            var line = [SIMD4<Float>](repeating: .zero, count: count)
            for l in 0..<lines {
                let base = l * stride
                for i in 0..<count { line[i] = pixels[base + i * step] }
                func at(_ i: Int) -> SIMD4<Float> { line[min(max(i, 0), count - 1)] }
                var sum = SIMD4<Float>.zero
                for i in -half...half { sum += at(i) }
                for i in 0..<count {
                    pixels[base + i * step] = sum * weight
                    sum += at(i + half + 1) - at(i - half)
                }
            }
        }
    }
}
