import Foundation
import WebImage

/// Where every pixel of a result comes from, worked out from the options and the upright source size alone,
/// with imgproxy's geometry (`processing/prepare.go`, `crop.go`, `calc_position.go`, `extend.go`,
/// `padding.go`): an optional crop of the source, a resize of that region, a crop of the resized region to the
/// requested size, and a canvas that extends and pads it.
struct ProcessingPlan: Sendable, Hashable {
    /// The upright source size the plan was made for.
    var source: PixelSize
    /// The part of the source kept before resizing (the `crop` option; the whole source without it).
    var region: PixelRect
    /// The size the region is resized to.
    var scaled: PixelSize
    /// The part of the resized (and flipped) region kept; the whole of it when the result size does not cut it.
    var box: PixelRect
    /// The result: the box extended (to the requested size, then to its aspect ratio) and padded, and where
    /// the box sits in it; the box itself when nothing extends or pads.
    var canvas: PixelRect
    /// The result's size.
    var result: PixelSize { PixelSize(width: canvas.width, height: canvas.height) }
    /// The largest factor the source is scaled by in either direction (what decoding at a reduced size may use).
    var scale: Double
    /// What sizes given in the URL (padding, watermark offsets) are multiplied by: `dpr`, lowered as the result is.
    var dprScale: Double

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
        let out = sizes.outer(options: options, dprScale: scales.dpr)
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
        canvas = Self.canvas(around: boxSize, sizes: sizes, options: options, dprScale: scales.dpr)
        scale = max(scales.width, scales.height)
        dprScale = scales.dpr
    }

    /// The box's canvas: extended to the requested size, then to its aspect ratio, each placed by its gravity,
    /// then padded; `x` and `y` are where the box sits in it.
    private static func canvas(around box: PixelSize, sizes: Sizes, options: ProcessingOptions,
                               dprScale: Double) -> PixelRect {
        var size = box, x = 0, y = 0
        func extend(to target: PixelSize, _ rule: ProcessingOptions.Extension) {
            guard target.width > size.width || target.height > size.height else { return }
            let whole = PixelSize(width: max(target.width, size.width), height: max(target.height, size.height))
            let at = position(size, in: whole, gravity: rule.gravity, offsetX: rule.offsetX,
                              offsetY: rule.offsetY, offsetScale: dprScale)
            (size, x, y) = (whole, x + at.x, y + at.y)
        }
        if let rule = options.extend { extend(to: sizes.target, rule) }
        if let rule = options.extendAspectRatio, let ratio = sizes.aspectRatioBox(options: options) {
            extend(to: ratio, rule)
        }
        let padding = padding(options.padding, dprScale: dprScale)
        return PixelRect(x: x + padding.left, y: y + padding.top, width: size.width + padding.left + padding.right,
                         height: size.height + padding.top + padding.bottom)
    }

    /// The padding in result pixels (each side times `dprScale`, rounded half to even).
    static func padding(_ padding: ProcessingOptions.Padding, dprScale: Double) -> ProcessingOptions.Padding {
        ProcessingOptions.Padding(top: evenScaled(padding.top, by: dprScale), right: evenScaled(padding.right, by: dprScale),
                                  bottom: evenScaled(padding.bottom, by: dprScale),
                                  left: evenScaled(padding.left, by: dprScale))
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
            shrinkX /= options.zoomX
            shrinkY /= options.zoomY
            dpr = options.dpr
            if !options.enlarge {
                let least = min(shrinkX, shrinkY)
                if least < 1 {
                    shrinkX /= least
                    shrinkY /= least
                    if options.extend == nil { dpr /= least }
                }
                // The largest dpr that keeps the requested box inside the unenlarged image.
                dpr = min(dpr, min(shrinkX, shrinkY))
            }
            if options.minWidth > 0, sourceWidth / Double(options.minWidth) < shrinkX {
                let least = sourceWidth / Double(options.minWidth)
                shrinkY /= shrinkX / least
                shrinkX = least
            }
            if options.minHeight > 0, sourceHeight / Double(options.minHeight) < shrinkY {
                let least = sourceHeight / Double(options.minHeight)
                shrinkX /= shrinkY / least
                shrinkY = least
            }
            width = 1 / min(shrinkX / dpr, sourceWidth)
            height = 1 / min(shrinkY / dpr, sourceHeight)
        }
    }

    /// The requested size in result pixels, the resized region and the size it is cut to (0: that side is not
    /// cut).
    private struct Sizes {
        var target: PixelSize
        var scaled: PixelSize
        var crop: PixelSize

        init(region: PixelSize, scales: Scales, options: ProcessingOptions) {
            let target = PixelSize(width: ProcessingPlan.scaled(options.width, by: scales.dpr * options.zoomX),
                                   height: ProcessingPlan.scaled(options.height, by: scales.dpr * options.zoomY))
            self.target = target
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

        /// The result without extending, cut to the requested size.
        var uncut: PixelSize {
            PixelSize(width: ProcessingPlan.minNonZero(scaled.width, crop.width),
                      height: ProcessingPlan.minNonZero(scaled.height, crop.height))
        }

        /// The smallest box of the requested aspect ratio around the uncut result (`extend_aspect_ratio`); nil
        /// when a side is not requested or the ratio already holds.
        func aspectRatioBox(options: ProcessingOptions) -> PixelSize? {
            guard target.width > 0, target.height > 0 else { return nil }
            let out = uncut
            let overWidth = Double(target.width) / Double(out.width), overHeight = Double(target.height) / Double(out.height)
            if overHeight > overWidth {
                return PixelSize(width: out.width,
                                 height: ProcessingPlan.scaled(out.width, by: Double(target.height) / Double(target.width)))
            }
            if overWidth > overHeight {
                return PixelSize(width: ProcessingPlan.scaled(out.height, by: Double(target.width) / Double(target.height)),
                                 height: out.height)
            }
            return nil
        }

        /// The result's size with its extensions and padding, which the output limits apply to.
        func outer(options: ProcessingOptions, dprScale: Double) -> PixelSize {
            var out = uncut
            if options.extend != nil {
                out = PixelSize(width: max(out.width, target.width), height: max(out.height, target.height))
            } else if options.extendAspectRatio != nil, let ratio = aspectRatioBox(options: options) {
                out = PixelSize(width: max(out.width, ratio.width), height: max(out.height, ratio.height))
            }
            let padding = ProcessingPlan.padding(options.padding, dprScale: dprScale)
            return PixelSize(width: out.width + padding.left + padding.right,
                             height: out.height + padding.top + padding.bottom)
        }
    }

    /// The `crop` option's region: a side of 0 is the whole side, one below 1 a fraction of it, else pixels
    /// (whole ones, as imgproxy truncates them), brought to `crop_aspect_ratio`'s; placed by the crop's gravity,
    /// else the request's.
    private static func cropRegion(source: PixelSize, options: ProcessingOptions) -> PixelRect {
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        guard let crop = options.crop else { return whole }
        func side(_ value: Double, _ length: Int) -> Int {
            if value == 0 { return 0 }
            if value >= 1 { return Int(value) }
            return max(1, scaled(length, by: value))
        }
        var size = PixelSize(width: min(minNonZero(side(crop.width, source.width), source.width), source.width),
                             height: min(minNonZero(side(crop.height, source.height), source.height), source.height))
        if let aspect = options.cropAspectRatio { size = aspect.corrected(size, within: source) }
        guard size != source else { return whole }
        let origin = crop.gravity.map {
            position(size, in: source, gravity: $0, offsetX: crop.offsetX, offsetY: crop.offsetY, offsetScale: 1)
        } ?? position(size, in: source, gravity: options.gravity, offsetX: options.gravityOffsetX,
                      offsetY: options.gravityOffsetY, offsetScale: 1)
        return PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// Where a `size` rectangle sits inside `whole` by `gravity` and its offsets (pixels times `offsetScale`
    /// when 1 or more in magnitude, else a fraction of the side), kept inside `whole` — or, `allowsOverflow`,
    /// only touching it (a watermark may hang over the edges).
    static func position(_ size: PixelSize, in whole: PixelSize, gravity: ProcessingOptions.Gravity,
                         offsetX: Double = 0, offsetY: Double = 0, offsetScale: Double = 1,
                         allowsOverflow: Bool = false) -> (x: Int, y: Int) {
        var left: Int, top: Int
        if case .focusPoint(let fx, let fy) = gravity {
            left = evenScaled(whole.width, by: fx) - size.width / 2
            top = evenScaled(whole.height, by: fy) - size.height / 2
        } else {
            let dx = offset(offsetX, of: whole.width, scale: offsetScale)
            let dy = offset(offsetY, of: whole.height, scale: offsetScale)
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
        if allowsOverflow {
            return (max(1 - size.width, min(left, whole.width - 1)), max(1 - size.height, min(top, whole.height - 1)))
        }
        return (max(0, min(left, whole.width - size.width)), max(0, min(top, whole.height - size.height)))
    }

    /// An offset in result pixels: pixels times `scale` when 1 or more in magnitude, else a fraction of `length`
    /// (imgproxy's rule for gravity offsets and watermark spacing).
    static func offset(_ value: Double, of length: Int, scale: Double) -> Int {
        abs(value) >= 1 ? Int((value * scale).rounded(.toNearestOrEven)) : evenScaled(length, by: value)
    }

    /// `length × factor` rounded half away from zero (imgproxy's `imath.Scale`).
    static func scaled(_ length: Int, by factor: Double) -> Int {
        length == 0 ? 0 : Int((Double(length) * factor).rounded())
    }

    /// `length × factor` rounded half to even (imgproxy's `imath.ScaleToEven`).
    static func evenScaled(_ length: Int, by factor: Double) -> Int {
        length == 0 ? 0 : Int((Double(length) * factor).rounded(.toNearestOrEven))
    }

    static func minNonZero(_ a: Int, _ b: Int) -> Int {
        a == 0 ? b : b == 0 ? a : min(a, b)
    }
}
