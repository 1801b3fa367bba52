import Foundation
import WebImage

/// Where every pixel of a result comes from, worked out from the options and the upright source size alone,
/// with imgproxy's geometry (`processing/prepare.go`, `crop.go`, `calc_position.go`): an optional crop of the
/// source, a resize of that region, and a crop of the resized region to the result size.
struct ProcessingPlan: Sendable, Hashable {
    /// The upright source size the plan was made for.
    var source: PixelSize
    /// The part of the source kept before resizing (the `crop` option; the whole source without it).
    var region: PixelRect
    /// The size the region is resized to.
    var scaled: PixelSize
    /// The part of the resized (and flipped) region kept; the whole of it when the result size does not cut it.
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
        region = Self.cropRegion(source: source, options: options)
        let regionSize = PixelSize(width: region.width, height: region.height)
        var scales = Scales(region: regionSize, options: options)
        var sizes = Sizes(region: regionSize, scales: scales, options: options)
        let out = PixelSize(width: Self.minNonZero(sizes.scaled.width, sizes.crop.width),
                            height: Self.minNonZero(sizes.scaled.height, sizes.crop.height))
        let down = min(Double(limits.maxSide) / Double(max(out.width, out.height)),
                       (Double(limits.maxPixels) / Double(out.pixelCount)).squareRoot())
        if down < 1 {
            scales.width = max(scales.width * down, 1 / Double(region.width))
            scales.height = max(scales.height * down, 1 / Double(region.height))
            scales.dpr *= down
            sizes = Sizes(region: regionSize, scales: scales, options: options)
        }
        scaled = sizes.scaled
        let boxSize = PixelSize(width: min(Self.minNonZero(sizes.crop.width, scaled.width), scaled.width),
                                height: min(Self.minNonZero(sizes.crop.height, scaled.height), scaled.height))
        let origin = Self.position(boxSize, in: scaled, gravity: options.gravity, offsetX: options.gravityOffsetX,
                                   offsetY: options.gravityOffsetY, offsetScale: scales.dpr)
        box = PixelRect(x: origin.x, y: origin.y, width: boxSize.width, height: boxSize.height)
        scale = max(scales.width, scales.height)
    }

    /// The resize factors of each side and the scale the requested size is multiplied by (`dpr`, lowered when
    /// not enlarging would otherwise give a box larger than the image).
    private struct Scales {
        var width: Double
        var height: Double
        var dpr: Double

        init(region: PixelSize, options: ProcessingOptions) {
            let sourceWidth = Double(region.width), sourceHeight = Double(region.height)
            let boxWidth = options.width == 0 ? sourceWidth : Double(options.width)
            let boxHeight = options.height == 0 ? sourceHeight : Double(options.height)
            var shrinkX = boxWidth == sourceWidth ? 1 : sourceWidth / boxWidth
            var shrinkY = boxHeight == sourceHeight ? 1 : sourceHeight / boxHeight
            if shrinkX != 1 || shrinkY != 1 {
                var type = options.resizingType
                if type == .auto {
                    let sameOrientation = (sourceWidth >= sourceHeight) == (boxWidth >= boxHeight)
                    type = sameOrientation ? .fill : .fit
                }
                if options.width == 0, type != .force {
                    shrinkX = shrinkY
                } else if options.height == 0, type != .force {
                    shrinkY = shrinkX
                } else if type == .fit {
                    shrinkX = max(shrinkX, shrinkY)
                    shrinkY = shrinkX
                } else if type == .fill || type == .fillDown {
                    shrinkX = min(shrinkX, shrinkY)
                    shrinkY = shrinkX
                }
            }
            dpr = options.dpr
            if !options.enlarge {
                let least = min(shrinkX, shrinkY)
                if least < 1 {
                    shrinkX /= least
                    shrinkY /= least
                    dpr /= least
                }
                // The largest dpr that keeps the requested box inside the unenlarged image.
                dpr = min(dpr, min(shrinkX, shrinkY))
            }
            width = 1 / min(shrinkX / dpr, sourceWidth)
            height = 1 / min(shrinkY / dpr, sourceHeight)
        }
    }

    /// The resized region and the size it is cut to (0: that side is not cut).
    private struct Sizes {
        var scaled: PixelSize
        var crop: PixelSize

        init(region: PixelSize, scales: Scales, options: ProcessingOptions) {
            let target = PixelSize(width: ProcessingPlan.scaled(options.width, by: scales.dpr),
                                   height: ProcessingPlan.scaled(options.height, by: scales.dpr))
            scaled = PixelSize(width: ProcessingPlan.scaled(region.width, by: scales.width),
                               height: ProcessingPlan.scaled(region.height, by: scales.height))
            crop = target
            guard options.resizingType == .fillDown, !options.enlarge else { return }
            // Not enlarged: the largest box of the requested aspect ratio inside the resized region.
            let overWidth = Double(target.width) / Double(scaled.width)
            let overHeight = Double(target.height) / Double(scaled.height)
            if overWidth > overHeight, overWidth > 1 {
                crop = PixelSize(width: scaled.width,
                                 height: ProcessingPlan.scaled(scaled.width, by: Double(target.height) / Double(target.width)))
            } else if overHeight > overWidth, overHeight > 1 {
                crop = PixelSize(width: ProcessingPlan.scaled(scaled.height, by: Double(target.width) / Double(target.height)),
                                 height: scaled.height)
            }
        }
    }

    /// The `crop` option's region: a side of 0 is the whole side, one below 1 a fraction of it, else pixels
    /// (whole ones, as imgproxy truncates them); placed by the crop's gravity, else the request's.
    private static func cropRegion(source: PixelSize, options: ProcessingOptions) -> PixelRect {
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        guard let crop = options.crop else { return whole }
        func side(_ value: Double, _ length: Int) -> Int {
            if value == 0 { return 0 }
            if value >= 1 { return Int(value) }
            return max(1, scaled(length, by: value))
        }
        let size = PixelSize(width: min(minNonZero(side(crop.width, source.width), source.width), source.width),
                             height: min(minNonZero(side(crop.height, source.height), source.height), source.height))
        guard size != source else { return whole }
        let origin = crop.gravity.map {
            position(size, in: source, gravity: $0, offsetX: crop.offsetX, offsetY: crop.offsetY, offsetScale: 1)
        } ?? position(size, in: source, gravity: options.gravity, offsetX: options.gravityOffsetX,
                      offsetY: options.gravityOffsetY, offsetScale: 1)
        return PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// Where a `size` rectangle sits inside `whole` by `gravity` and its offsets (pixels times `offsetScale`
    /// when 1 or more in magnitude, else a fraction of the side), kept inside `whole`.
    static func position(_ size: PixelSize, in whole: PixelSize, gravity: ProcessingOptions.Gravity,
                         offsetX: Double = 0, offsetY: Double = 0, offsetScale: Double = 1) -> (x: Int, y: Int) {
        var left: Int, top: Int
        if case .focusPoint(let fx, let fy) = gravity {
            left = evenScaled(whole.width, by: fx) - size.width / 2
            top = evenScaled(whole.height, by: fy) - size.height / 2
        } else {
            func offset(_ value: Double, _ length: Int) -> Int {
                abs(value) >= 1 ? Int((value * offsetScale).rounded(.toNearestOrEven)) : evenScaled(length, by: value)
            }
            let dx = offset(offsetX, whole.width), dy = offset(offsetY, whole.height)
            left = evenScaled(whole.width - size.width + 1, by: 0.5) + dx
            top = evenScaled(whole.height - size.height + 1, by: 0.5) + dy
            switch gravity {
            case .north, .northEast, .northWest: top = dy
            case .south, .southEast, .southWest: top = whole.height - size.height - dy
            default: break
            }
            switch gravity {
            case .east, .northEast, .southEast: left = whole.width - size.width - dx
            case .west, .northWest, .southWest: left = dx
            default: break
            }
        }
        return (max(0, min(left, whole.width - size.width)), max(0, min(top, whole.height - size.height)))
    }

    /// `length × factor` rounded half away from zero (imgproxy's `imath.Scale`).
    static func scaled(_ length: Int, by factor: Double) -> Int {
        length == 0 ? 0 : Int((Double(length) * factor).rounded())
    }

    /// `length × factor` rounded half to even (imgproxy's `imath.ScaleToEven`).
    private static func evenScaled(_ length: Int, by factor: Double) -> Int {
        length == 0 ? 0 : Int((Double(length) * factor).rounded(.toNearestOrEven))
    }

    private static func minNonZero(_ a: Int, _ b: Int) -> Int {
        a == 0 ? b : b == 0 ? a : min(a, b)
    }
}
