import Foundation

extension ImageTransformers {
    /// Rotates counter-clockwise by an angle in radians, bilinear-sampled. With `fitSize` the canvas grows
    /// to hold the whole result (each side the ceiling of the rotated bounds), else it keeps the original
    /// size and the corners are clipped. Key: `SDImageRotationTransformer(A,F)`.
    public struct Rotate: ImageTransforming {
        public var angle: Double
        public var fitSize: Bool

        public init(angle: Double, fitSize: Bool = true) {
            self.angle = angle
            self.fitSize = fitSize
        }

        public var transformerKey: String { "SDImageRotationTransformer(\(formatF(angle)),\(fitSize ? 1 : 0))" }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            guard angle.isFinite else { return nil }
            let c = cos(angle), s = sin(angle)
            let w = Double(image.pixelWidth), h = Double(image.pixelHeight)
            // Rounding error must not add a pixel: cos(π/2) is 6e-17, not 0.
            func ceilTolerant(_ v: Double) -> Int { Int((v - 1e-9).rounded(.up)) }
            let outW = fitSize ? max(1, ceilTolerant(abs(w * c) + abs(h * s))) : image.pixelWidth
            let outH = fitSize ? max(1, ceilTolerant(abs(w * s) + abs(h * c))) : image.pixelHeight
            return mapFrames(of: image, hasAlpha: true) { source in
                let raster = PremultipliedRaster(source)
                var out = PremultipliedRaster(width: outW, height: outH)
                for oy in 0..<outH {
                    for ox in 0..<outW {
                        // Output point relative to the centre (y down) → source point, inverse rotation.
                        let dx = Double(ox) + 0.5 - Double(outW) / 2, dy = Double(oy) + 0.5 - Double(outH) / 2
                        let sx = c * dx - s * dy + w / 2, sy = s * dx + c * dy + h / 2
                        out[ox, oy] = raster.sample(x: sx, y: sy)
                    }
                }
                return out.pixelBuffer()
            }
        }
    }
}
