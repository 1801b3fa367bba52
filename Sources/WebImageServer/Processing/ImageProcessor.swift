import Foundation
import Tracing
import WebImage

/// Turns source bytes into result bytes: header checks, decode at the size the result needs, orientation,
/// rotation, crop and resize, flip, result crop, tone, blur, sharpen, pixelate, extend and pad, background,
/// colour overlays, watermark, encode (`+Source` reads and checks the source, `+Tone` does imgproxy Pro's colour
/// options, `+Watermark` prepares the watermark, `+Chain` runs chained pipelines, `+Encode` and `+BestFormat`
/// write the result). Synchronous and CPU-bound: the service runs it on its worker threads, never on the
/// cooperative pool.
package struct ImageProcessor: Sendable {
    let coders: CodersManager
    let maxSourcePixels: Int
    let limits: ProcessingPlan.Limits
    let encoding: EncodingDefaults
    /// The operator's watermark; nil: `watermark` draws nothing unless the URL gives an image, as in imgproxy.
    var watermark: WatermarkStep?
    /// Multiplies every watermark's opacity (`IMGPROXY_WATERMARK_OPACITY`), a URL's image's too. Default 1.
    var watermarkOpacity = 1.0
    /// How much of an animation is processed.
    var animation = AnimationLimits()
    /// How SVG sources are answered.
    var vectors = VectorHandling()
    /// Video sprite sheets and animations take key frames once their step reaches the key frame interval
    /// (`IMGPROXY_VIDEO_THUMBNAIL_TILE_AUTO_KEYFRAMES`). Default false.
    var videoTileAutoKeyframes = false

    /// imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES` and `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`.
    struct AnimationLimits: Sendable {
        /// The frames of an animation processed, the first ones; 1 makes every animation a still. Default 1.
        var maxFrames = 1
        /// The most pixels one frame of an animation may have; 0 counts every frame processed against the
        /// source limit instead. Default 0.
        var maxFramePixels = 0
    }

    /// The encoded result of `options` applied to the source and its format (`choice` resolved for the source),
    /// each stage timed by `timing`. The header is read here only when fetching the source did not already.
    func process(_ source: SourceBytes, options: ProcessingOptions, format choice: FormatChoice,
                 timing: ProxyInstruments, watermark custom: SourceBytes? = nil,
                 chain: [(options: ProcessingOptions, watermark: SourceBytes?)] = [])
        throws(ProxyError) -> (data: Data, format: ImageFormat) {
        try options.hashsum?.check(source.data)
        var source = try inflatingSVGZ(source, options: options)
        var header = try header(of: source)
        if header.format == .svg, let css = options.style {
            source = SourceBytes(data: try SVGStyleInjection.prepending(css: css, to: source.data), header: header)
        }
        // imgproxy's `raw`: the source as it came, whatever the URL asks, without looking at its pixels.
        if options.raw { return (source.data, header.format) }
        if header.format == .svg, let answer = try svgAnswer(source, choice: choice, options: options) { return answer }
        if choice.requested == .svg {
            throw .unprocessable("an SVG result needs an SVG source; the source is \(header.format.rawValue)")
        }
        // imgproxy Pro's sprite sheet or animation of a video: made first, then processed as the source.
        let composite = try videoComposite(source, header: header, options: options)
        if let composite {
            header = ImageHeader(format: header.format, pixelSize: composite.pixelSize, frameCount: composite.frameCount,
                                 hasAlpha: composite.hasAlpha)
        }
        let pdf = header.format == .pdf ? vectors.pdf : nil
        if header.format == .pdf, pdf == nil { throw Self.pdfSourcesOff }
        let vector = Self.vectorFormats.contains(header.format)
        var options = options
        // imgproxy renders a vector at any size: `enlarge` does not hold it back, nor its declared size refuse it.
        if vector { options.enlarge = true }
        // A video animation keeps the frames its URL asks for (within the source limits).
        let frames = vector ? 1 : composite?.frameCount ?? framesLoaded(header, options: options)
        // A vector's declared size is never refused (the vector guard scales it), its file size is.
        if vector {
            try checkSourceBytes(source, options: options)
        } else {
            try checkSource(source, header: header, frames: frames, options: options)
        }
        // imgproxy skips when the URL names no format or the source's (negotiation does not count); never a video.
        if options.skipProcessing.contains(header.format), !header.format.isVideo, choice.mayAnswerSource(skipsAllowed: encoding.bestFormat.allowsSkips),
           choice.requested == nil || choice.requested == header.format {
            return (source.data, header.format)
        }
        // A PDF is planned on the pages `page` and `pages` choose (imgproxy Pro's), which can differ in size.
        let document = pdf == nil ? nil : try pdfPages(source.data, header: header, options: options)
        let base = vector ? vectorBase(document?.size ?? header.pixelSize, options: options) : header.pixelSize
        let animated = frames > 1
        let named = choice.resolved(source: header.format, animated: animated)
        let keepsFrames = animated && choice.keepsFrames(source: header.format, animated: true)
        // A trim or an embedded thumbnail decides the size the plan starts from: that image is decoded whole
        // first (imgproxy trims before anything else, and never an animation it keeps).
        let trims = options.trim != nil && !keepsFrames
        let thumbnail = options.enforceThumbnail && Self.thumbnailFormats.contains(header.format)
        let upright = uprightSize(base, orientation: options.autoRotate ? header.orientation : .up,
                                  rotate: options.rotate)
        let plan = ProcessingPlan(source: upright, options: options,
                                  limits: limits(for: options, frames: keepsFrames ? frames : 1))
        let keepsProfile = !options.stripColorProfile && (named.map(Self.carriesProfile) ?? false)
        // imgproxy Pro's page and pages, for a still result.
        let pages = keepsFrames || vector || composite != nil ? nil : try pageRange(header: header, options: options)
        if let pages { try checkPages(header, count: pages.count, options: options) }
        var image = try timing.time(.decode) { [options] span throws(ProxyError) in
            if span.isRecording { span.attributes[ImageProxySpans.Attribute.format] = header.format.rawValue }
            if let pdf, let document {
                return try drawPDF(source.data, pages: document, base: base, scale: trims ? 1 : plan.scale,
                                   renderer: pdf)
            }
            if let composite { return keepsFrames ? composite : composite.with(frames: [composite.frames[0]]) }
            if let pages {
                return try decodePages(source.data, range: pages, keepsProfile: keepsProfile,
                                       readsMetadata: ResultMetadata.isRead(for: options))
            }
            return try decode(source.data, header: header, scale: trims || thumbnail ? 1 : plan.scale,
                              kernel: options.resizingAlgorithm,
                              exactSize: trims || thumbnail || vector ? nil
                                  : storedResize(plan, upright: upright, orientation: options.autoRotate
                                                 ? header.orientation : .up, rotate: options.rotate),
                              frames: keepsFrames ? frames : 1, keepsProfile: keepsProfile, thumbnail: thumbnail,
                              readsMetadata: ResultMetadata.isRead(for: options),
                              video: (options.videoThumbnailSecond, options.videoThumbnailKeyframes),
                              vectorRaster: vector ? vectorRaster(base: base, scale: trims ? 1 : plan.scale) : nil)
        }
        var stored = thumbnail || pages != nil || composite != nil ? image.pixels.size : base
        if trims, let trim = options.trim {
            image = trimmed(image, trim)
            stored = image.pixels.size
        }
        let result = try timing.time(.process) { [image, stored, options] _ throws(ProxyError) in
            var result = try transform(image, storedSize: stored, plan: plan, options: options,
                                       watermark: options.watermark == nil ? nil
                                           : try watermarkStep(for: options, custom: custom))
            for (pipeline, mark) in chain { result = try chained(result, options: pipeline, watermark: mark) }
            return result
        }
        // The last pipeline's options write the result.
        let output = chain.last?.options ?? options
        return try timing.time(.encode) { [output] span throws(ProxyError) in
            let options = output
            let kept = ResultMetadata.result(from: image.metadata, options: options)
            let made: (data: Data, format: ImageFormat)
            if let candidates = choice.bestCandidates {
                made = try encodeBest(result.with(metadata: kept), candidates: candidates, options: options)
            } else {
                let format = named ?? choice.fallback(for: result)
                made = (try encode(result.fitted(to: format).with(metadata: kept), as: format, options: options), format)
            }
            if span.isRecording {
                span.attributes[ImageProxySpans.Attribute.format] = made.format.rawValue
                span.attributes["http.response.body.size"] = made.data.count
            }
            return made
        }
    }

    /// Orientation, rotation, crop and resize of every frame (as `plan`, made on the source's upright size,
    /// says), then the filters.
    func transform(_ image: Image, storedSize: PixelSize, plan: ProcessingPlan,
                   options: ProcessingOptions, watermark: WatermarkStep?) throws(ProxyError) -> Image {
        let orientation = options.autoRotate ? image.orientation : .up
        let upright = uprightSize(storedSize, orientation: orientation, rotate: options.rotate)
        // The header told the orientation the plan was made for; a decoder that reports another (a damaged
        // file) gets a plan of its own rather than crops in the wrong axes.
        let plan = upright == plan.source ? plan : ProcessingPlan(source: upright, options: options,
                                                                  limits: limits(for: options, frames: image.frameCount))
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frameCount)
        var smart = SmartPlacement()
        for frame in image.frames {
            var pixels = frame.pixels.converted(to: .rgba8).applying(orientation)
            pixels = pixels.applying(Self.orientation(forClockwise: options.rotate))
            pixels = transform(pixels, plan: plan, upright: upright, options: options, smart: &smart)
            frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        return try filter(Image(frames: frames, loopCount: image.loopCount, iccProfile: image.iccProfile),
                          plan: plan, options: options, watermark: watermark)
    }

    /// The size the plan resizes the whole source to, in stored orientation, when it resizes the whole source
    /// (no crop of it first); nil otherwise. Decoded at exactly that size, the resize has nothing left to do:
    /// decoded at the size rounded up (a pixel more on one side), the raster was resampled a second time,
    /// costing time and sharpness.
    func storedResize(_ plan: ProcessingPlan, upright: PixelSize, orientation: ImageOrientation,
                      rotate: Int) -> PixelSize? {
        guard plan.region == PixelRect(x: 0, y: 0, width: upright.width, height: upright.height) else { return nil }
        // The turn from stored to upright swaps the sides as the turn back does.
        return uprightSize(plan.scaled, orientation: orientation, rotate: rotate)
    }

    func uprightSize(_ stored: PixelSize, orientation: ImageOrientation, rotate: Int) -> PixelSize {
        let swapped = orientation.swapsDimensions != (rotate % 180 != 0)
        return swapped ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    static func orientation(forClockwise degrees: Int) -> ImageOrientation {
        switch degrees {
        case 90: .right
        case 180: .down
        case 270: .left
        default: .up
        }
    }

    /// The plan (in source pixels) carried out on a raster decoded at a reduced size; a flip comes after the
    /// resize and before the result crop, as in imgproxy's pipeline.
    /// Where smart gravity put the crops, found on the first frame and kept for every other.
    private struct SmartPlacement {
        var region: (x: Int, y: Int)?
        var box: (x: Int, y: Int)?
    }

    private func transform(_ pixels: PixelBuffer, plan: ProcessingPlan, upright: PixelSize,
                           options: ProcessingOptions, smart: inout SmartPlacement) -> PixelBuffer {
        let kx = Double(pixels.width) / Double(upright.width), ky = Double(pixels.height) / Double(upright.height)
        var region = PixelRect(x: Int((Double(plan.region.x) * kx).rounded()),
                               y: Int((Double(plan.region.y) * ky).rounded()),
                               width: max(1, Int((Double(plan.region.width) * kx).rounded())),
                               height: max(1, Int((Double(plan.region.height) * ky).rounded())))
        if let crop = options.crop, (crop.gravity ?? options.gravity) == .smart {
            let origin = smart.region ?? AttentionCrop.origin(of: PixelSize(width: region.width, height: region.height),
                                                              in: pixels)
            smart.region = origin
            (region.x, region.y) = origin
        }
        let resized = Resampler.resample(pixels.cropped(to: region), to: plan.scaled,
                                         kernel: options.resizingAlgorithm)
        let flip: ImageOrientation = switch (options.flipHorizontally, options.flipVertically) {
        case (true, true): .down
        case (true, false): .upMirrored
        case (false, true): .downMirrored
        case (false, false): .up
        }
        let flipped = resized.applying(flip)
        var box = plan.box
        if options.gravity == .smart, box.width < flipped.width || box.height < flipped.height {
            // imgproxy places the result crop by attention on the resized image.
            let origin = smart.box ?? AttentionCrop.origin(of: PixelSize(width: box.width, height: box.height), in: flipped)
            smart.box = origin
            (box.x, box.y) = origin
        }
        return flipped.cropped(to: box)
    }

    /// Tone, blur, sharpen, unsharp masking and pixelate (imgproxy's `applyFilters`), then the canvas the plan
    /// extends and pads the result to, the background, the colour overlays and the watermark.
    private func filter(_ image: Image, plan: ProcessingPlan, options: ProcessingOptions,
                        watermark: WatermarkStep?) throws(ProxyError) -> Image {
        var image = Self.adjustingTone(image, options: options)
        if options.blur > 0, let blurred = ImageTransformers.Blur(radius: options.blur).transform(image, forKey: "") {
            image = blurred
        }
        if options.sharpen > 0, let blurred = ImageTransformers.Blur(radius: options.sharpen).transform(image, forKey: "") {
            let frames = zip(image.frames, blurred.frames).map { frame, soft in
                ImageFrame(pixels: RasterOps.sharpen(frame.pixels, blurred: soft.pixels), duration: frame.duration)
            }
            image = image.with(frames: frames)
        }
        let unsharp = options.unsharpMasking.applied(to: encoding.unsharpMasking)
        if unsharp.applies(downscaled: plan.scale < 1, sharpens: options.sharpen > 0) {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: UnsharpMask.apply($0.pixels, weight: unsharp.weight, divider: unsharp.divider),
                           duration: $0.duration)
            })
        }
        if options.pixelate > 1 {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: RasterOps.pixelated($0.pixels, block: options.pixelate), duration: $0.duration)
            })
        }
        let canvas = plan.canvas
        if canvas.x != 0 || canvas.y != 0 || canvas.width != plan.box.width || canvas.height != plan.box.height {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: $0.pixels.embedded(in: plan.result, at: (canvas.x, canvas.y)), duration: $0.duration)
            }, hasAlpha: true)
        }
        if let background = options.background {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: $0.pixels.flattened(onto: background), duration: $0.duration)
            }, hasAlpha: false)
        }
        image = Self.overlaying(image, options: options)
        if let mark = options.watermark, let watermark {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: watermark.apply(mark, to: $0.pixels, dprScale: plan.dprScale), duration: $0.duration)
            })
        }
        return image
    }
}
