extension PixelBuffer {
    /// The raster turned upright for an EXIF orientation (`self` for `.up`).
    public func applying(_ orientation: ImageOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let bpp = format.bytesPerPixel
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        return PixelBuffer(width: outWidth, height: outHeight, format: format) { out in
            withUnsafeBytes { src in
                for oy in 0..<outHeight {
                    for ox in 0..<outWidth {
                        // Where the upright pixel (ox, oy) is stored in the source.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (ox, oy)
                        case .upMirrored: (sx, sy) = (width - 1 - ox, oy)
                        case .down: (sx, sy) = (width - 1 - ox, height - 1 - oy)
                        case .downMirrored: (sx, sy) = (ox, height - 1 - oy)
                        case .leftMirrored: (sx, sy) = (oy, ox)
                        case .right: (sx, sy) = (oy, height - 1 - ox)
                        case .rightMirrored: (sx, sy) = (width - 1 - oy, height - 1 - ox)
                        case .left: (sx, sy) = (width - 1 - oy, ox)
                        }
                        let s = (sy * width + sx) * bpp, o = (oy * outWidth + ox) * bpp
                        for c in 0..<bpp { out[o + c] = src[s + c] }
                    }
                }
            }
        }
    }
}
