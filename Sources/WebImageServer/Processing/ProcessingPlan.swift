import Foundation
import WebImage

/// Where every pixel of a result comes from, worked out from the options and the upright source size alone
/// (imgproxy's geometry): an optional crop of the source, a resize of that region, and for the fill types a
/// crop of the resized region to the box.
struct ProcessingPlan: Sendable, Hashable {
    /// The upright source size the plan was made for.
    var source: PixelSize
    /// The part of the source kept before resizing (the `crop` option; the whole source without it).
    var region: PixelRect
    /// The size the region is resized to.
    var scaled: PixelSize
    /// The part of the resized region kept (the box of `fill`, `fill-down`, `auto`); the whole of it otherwise.
    var box: PixelRect
    /// The result's size.
    var result: PixelSize { PixelSize(width: box.width, height: box.height) }
    /// The largest factor the source is scaled by in either direction (what decoding at a reduced size may use).
    var scale: Double

    /// The largest result allowed: a larger one is scaled down, keeping its aspect ratio, until it fits.
    struct Limits: Sendable, Hashable {
        var maxSide: Int
        var maxPixels: Int
    }

    init(source: PixelSize, options: ProcessingOptions, limits: Limits) {
        self.source = source
        let gravity = options.gravity
        region = Self.cropRegion(source: source, crop: options.crop, gravity: gravity)
        let targetWidth = Int((Double(options.width) * options.dpr).rounded())
        let targetHeight = Int((Double(options.height) * options.dpr).rounded())
        let rw = Double(region.width), rh = Double(region.height)
        var type = options.resizingType
        if type == .auto {
            let agree = targetWidth > 0 && targetHeight > 0 && (rw >= rh) == (targetWidth >= targetHeight)
            type = agree ? .fill : .fit
        }
        var sx = 1.0, sy = 1.0
        let wRatio = targetWidth > 0 ? Double(targetWidth) / rw : nil
        let hRatio = targetHeight > 0 ? Double(targetHeight) / rh : nil
        switch type {
        case .fit, .auto:
            sx = [wRatio, hRatio].compactMap { $0 }.min() ?? 1
            sy = sx
        case .fill, .fillDown:
            sx = [wRatio, hRatio].compactMap { $0 }.max() ?? 1
            sy = sx
        case .force:
            sx = wRatio ?? hRatio ?? 1
            sy = hRatio ?? wRatio ?? 1
        }
        if !options.enlarge {
            sx = min(sx, 1)
            sy = min(sy, 1)
        }
        var scaled = PixelSize(width: max(1, Int((rw * sx).rounded())), height: max(1, Int((rh * sy).rounded())))
        var boxSize = scaled
        if type == .fill || type == .fillDown, targetWidth > 0 || targetHeight > 0 {
            var w = targetWidth > 0 ? targetWidth : scaled.width
            var h = targetHeight > 0 ? targetHeight : scaled.height
            if type == .fillDown, w > scaled.width || h > scaled.height {
                // Not enlarged: the largest box of the requested aspect ratio inside the scaled region.
                let k = min(Double(scaled.width) / Double(w), Double(scaled.height) / Double(h))
                w = Int((Double(w) * k).rounded())
                h = Int((Double(h) * k).rounded())
            }
            boxSize = PixelSize(width: max(1, min(w, scaled.width)), height: max(1, min(h, scaled.height)))
        }
        let k = min(1, Double(limits.maxSide) / Double(max(boxSize.width, boxSize.height)),
                    (Double(limits.maxPixels) / Double(boxSize.pixelCount)).squareRoot())
        if k < 1 {
            sx *= k
            sy *= k
            scaled = PixelSize(width: max(1, Int((Double(scaled.width) * k).rounded())),
                               height: max(1, Int((Double(scaled.height) * k).rounded())))
            boxSize = PixelSize(width: min(scaled.width, max(1, Int((Double(boxSize.width) * k).rounded()))),
                                height: min(scaled.height, max(1, Int((Double(boxSize.height) * k).rounded()))))
        }
        self.scaled = scaled
        let origin = Self.place(boxSize, in: scaled, gravity: gravity)
        box = PixelRect(x: origin.x, y: origin.y, width: boxSize.width, height: boxSize.height)
        scale = max(sx, sy)
    }

    /// The `crop` option's region: sides of 0 mean the whole side, sides below 1 a fraction of it.
    private static func cropRegion(source: PixelSize, crop: ProcessingOptions.Crop?,
                                   gravity: ProcessingOptions.Gravity) -> PixelRect {
        guard let crop else { return PixelRect(x: 0, y: 0, width: source.width, height: source.height) }
        func side(_ value: Double, _ whole: Int) -> Int {
            if value <= 0 { return whole }
            if value < 1 { return max(1, Int((value * Double(whole)).rounded())) }
            return min(whole, Int(value.rounded()))
        }
        let size = PixelSize(width: side(crop.width, source.width), height: side(crop.height, source.height))
        let origin = place(size, in: source, gravity: crop.gravity ?? gravity)
        return PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// Where a `size` rectangle sits inside `whole` by `gravity`.
    static func place(_ size: PixelSize, in whole: PixelSize, gravity: ProcessingOptions.Gravity) -> (x: Int, y: Int) {
        let freeX = whole.width - size.width, freeY = whole.height - size.height
        switch gravity {
        case .center, .smart: return (freeX / 2, freeY / 2)
        case .north: return (freeX / 2, 0)
        case .south: return (freeX / 2, freeY)
        case .east: return (freeX, freeY / 2)
        case .west: return (0, freeY / 2)
        case .northEast: return (freeX, 0)
        case .northWest: return (0, 0)
        case .southEast: return (freeX, freeY)
        case .southWest: return (0, freeY)
        case .focusPoint(let fx, let fy):
            let x = Int((fx * Double(whole.width) - Double(size.width) / 2).rounded())
            let y = Int((fy * Double(whole.height) - Double(size.height) / 2).rounded())
            return (min(max(0, x), freeX), min(max(0, y), freeY))
        }
    }
}
