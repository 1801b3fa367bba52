extension ImageTransformers {
    /// Rounds chosen corners (anti-aliased) and optionally draws a border inside the edge.
    /// Key: `SDImageRoundCornerTransformer(R,C,B,#aarrggbb)`, C the corner mask, `(null)` for no border colour.
    public struct RoundCorner: ImageTransforming {
        /// Which corners to round: UIKit's `UIRectCorner` bits.
        public struct Corners: OptionSet, Sendable, Hashable {
            public let rawValue: UInt
            public init(rawValue: UInt) { self.rawValue = rawValue }
            public static let topLeft = Corners(rawValue: 1 << 0)
            public static let topRight = Corners(rawValue: 1 << 1)
            public static let bottomLeft = Corners(rawValue: 1 << 2)
            public static let bottomRight = Corners(rawValue: 1 << 3)
            /// Every corner: all bits set, as UIKit's `UIRectCornerAllCorners` (`~0UL`).
            public static let allCorners = Corners(rawValue: .max)
        }

        /// Corner radius in points (× the image's scale in pixels).
        public var radius: Double
        public var corners: Corners
        /// Border width in points; 0 draws none.
        public var borderWidth: Double
        public var borderColor: RGBAColor?

        public init(radius: Double, corners: Corners = .allCorners, borderWidth: Double = 0, borderColor: RGBAColor? = nil) {
            self.radius = radius
            self.corners = corners
            self.borderWidth = borderWidth
            self.borderColor = borderColor
        }

        public var transformerKey: String {
            "SDImageRoundCornerTransformer(\(formatF(radius)),\(corners.rawValue),\(formatF(borderWidth)),\(borderColor?.keyHex ?? "(null)"))"
        }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            guard radius.isFinite, borderWidth.isFinite, radius >= 0, borderWidth >= 0 else { return nil }
            let scale = image.scale
            let border = borderWidth * scale
            let shape = RoundedRect(width: Double(image.pixelWidth), height: Double(image.pixelHeight),
                                    inset: border / 2, radius: radius * scale, corners: corners)
            let stroke = borderColor.map { $0.premultiplied }
            return mapFrames(of: image, hasAlpha: true) { source in
                var raster = PremultipliedRaster(source)
                for y in 0..<raster.height {
                    for x in 0..<raster.width {
                        let d = shape.signedDistance(x: Double(x) + 0.5, y: Double(y) + 0.5)
                        var pixel = raster[x, y] * Float(min(max(0.5 - d, 0), 1))
                        if let stroke, border > 0 {
                            let coverage = Float(min(max(border / 2 + 0.5 - abs(d), 0), 1))
                            let s = stroke * coverage
                            pixel = s + pixel * (1 - s.w)
                        }
                        raster[x, y] = pixel
                    }
                }
                return raster.pixelBuffer()
            }
        }
    }
}

/// A rectangle with some corners rounded, answering how far a point is from its edge.
private struct RoundedRect {
    let minX, minY, maxX, maxY, radius: Double
    let corners: ImageTransformers.RoundCorner.Corners

    init(width: Double, height: Double, inset: Double, radius: Double, corners: ImageTransformers.RoundCorner.Corners) {
        minX = inset; minY = inset; maxX = width - inset; maxY = height - inset
        self.radius = max(0, min(radius, (maxX - minX) / 2, (maxY - minY) / 2))
        self.corners = corners
    }

    /// Negative inside, positive outside, in pixels.
    func signedDistance(x: Double, y: Double) -> Double {
        let left = x < minX + radius, top = y < minY + radius
        let right = x > maxX - radius, bottom = y > maxY - radius
        let corner: (Double, Double)? = switch (left, right, top, bottom) {
        case (true, _, true, _) where corners.contains(.topLeft): (minX + radius, minY + radius)
        case (_, true, true, _) where corners.contains(.topRight): (maxX - radius, minY + radius)
        case (true, _, _, true) where corners.contains(.bottomLeft): (minX + radius, maxY - radius)
        case (_, true, _, true) where corners.contains(.bottomRight): (maxX - radius, maxY - radius)
        default: nil
        }
        if let (cx, cy) = corner {
            return ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius
        }
        return max(minX - x, x - maxX, minY - y, y - maxY)
    }
}
