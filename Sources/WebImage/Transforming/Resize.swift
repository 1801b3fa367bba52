extension ImageTransformers {
    /// Resizes to a size in points (× the image's scale in pixels). Key:
    /// `SDImageResizingTransformer({W,H},M)` with M 0 fill, 1 aspect fit, 2 aspect fill.
    public struct Resize: ImageTransforming {
        public enum Mode: Int, Sendable {
            /// Stretch to exactly the size.
            case fill = 0
            /// Fit inside the size keeping the aspect ratio, centred on a transparent canvas of the size.
            case aspectFit = 1
            /// Cover the size keeping the aspect ratio, centred, the overflow cropped.
            case aspectFill = 2
        }

        public var width: Double
        public var height: Double
        public var mode: Mode

        public init(width: Double, height: Double, mode: Mode = .fill) {
            self.width = width
            self.height = height
            self.mode = mode
        }

        public var transformerKey: String {
            "SDImageResizingTransformer({\(formatF(width)),\(formatF(height))},\(mode.rawValue))"
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            guard width.isFinite, height.isFinite else { return nil }
            let target = PixelSize(width: Int((width * image.scale).rounded()), height: Int((height * image.scale).rounded()))
            guard target.width > 0, target.height > 0, target.pixelCount <= 100_000_000 else { return nil }
            let sw = Double(image.pixelWidth), sh = Double(image.pixelHeight)
            let ratio: Double
            switch mode {
            case .fill:
                return mapFrames(of: image) { Resampler.resample($0, to: target) }
            case .aspectFit: ratio = min(Double(target.width) / sw, Double(target.height) / sh)
            case .aspectFill: ratio = max(Double(target.width) / sw, Double(target.height) / sh)
            }
            let scaled = PixelSize(width: max(1, Int((sw * ratio).rounded())), height: max(1, Int((sh * ratio).rounded())))
            let offsetX = (target.width - scaled.width) / 2, offsetY = (target.height - scaled.height) / 2
            let padded = scaled.width < target.width || scaled.height < target.height
            return mapFrames(of: image, hasAlpha: image.hasAlpha || padded) { source in
                let resized = Resampler.resample(source, to: scaled)
                return PixelBuffer(width: target.width, height: target.height) { out in
                    out.initializeMemory(as: UInt8.self, repeating: 0)
                    resized.withUnsafeBytes { src in
                        for y in 0..<target.height {
                            let sy = y - offsetY
                            guard sy >= 0 && sy < scaled.height else { continue }
                            let firstX = max(0, offsetX), lastX = min(target.width, offsetX + scaled.width)
                            guard lastX > firstX else { continue }
                            let from = (sy * scaled.width + (firstX - offsetX)) * 4
                            out.baseAddress!.advanced(by: (y * target.width + firstX) * 4)
                                .copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: (lastX - firstX) * 4)
                        }
                    }
                }
            }
        }
    }
}
