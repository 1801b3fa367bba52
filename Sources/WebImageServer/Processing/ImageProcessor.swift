import Foundation
import WebImage

/// Turns source bytes into result bytes: header checks, decode at the size the result needs, orientation,
/// rotation, crop and resize, flip, result crop, blur, sharpen, pixelate, extend and pad, background, encode. Synchronous and CPU-bound: the service runs
/// it on its worker threads, never on the cooperative pool.
struct ImageProcessor: Sendable {
    let coders: CodersManager
    let maxSourcePixels: Int
    let limits: ProcessingPlan.Limits
    let quality: QualityDefaults
    /// The operator's watermark; nil: `watermark` draws nothing, as in imgproxy.
    var watermark: WatermarkStep?

    /// The encoded result of `options` applied to the source and its format (`choice` resolved for the source),
    /// each stage timed by `timing`. The header is read here only when fetching the source did not already.
    func process(_ source: SourceBytes, options: ProcessingOptions, format choice: FormatChoice,
                 timing: ProxyInstruments) throws(ProxyError) -> (data: Data, format: ImageFormat) {
        let header = try header(of: source)
        try checkPixels(header.codedSize, limit: min(maxSourcePixels, options.security.maxSourcePixels ?? .max))
        try checkSecurity(options.security, source: source, header: header)
        // imgproxy skips when no format was asked (negotiation does not count) or the source's was.
        if options.skipProcessing.contains(header.format),
           choice.dependsOnAccept || choice.format == nil || choice.format == header.format {
            return (source.data, header.format)
        }
        let named = choice.resolved(source: header.format, animated: header.frameCount > 1)
        let keepFrames = choice.keepsFrames(source: header.format, animated: header.frameCount > 1)
        // A trim decides the size the plan starts from: the whole image is decoded and cut first (imgproxy
        // trims before anything else, and never an animation it keeps).
        let trims = options.trim != nil && (header.frameCount == 1 || !keepFrames)
        let upright = uprightSize(header.pixelSize, orientation: header.orientation, rotate: options.rotate)
        let plan = ProcessingPlan(source: upright, options: options, limits: limits(for: options))
        var image = try timing.time(.decode) { () throws(ProxyError) in
            try decode(source.data, header: header, scale: trims ? 1 : plan.scale, keepFrames: keepFrames,
                       readsMetadata: ResultMetadata.isRead(for: options))
        }
        var stored = header.pixelSize
        if trims, let trim = options.trim {
            image = try trimmed(image, trim)
            stored = image.pixels.size
        }
        let result = try timing.time(.process) { [image, stored] () throws(ProxyError) in
            try transform(image, storedSize: stored, plan: plan, options: options)
        }
        let format = named ?? choice.fallback(for: result)
        let bytes = try timing.time(.encode) { () throws(ProxyError) in
            try encode(result.with(metadata: ResultMetadata.result(from: image.metadata, options: options)), as: format,
                       options: options)
        }
        return (bytes, format)
    }

    /// The source's header: the one read while fetching it, else read now by the coders (no pixel decoded).
    func header(of source: SourceBytes) throws(ProxyError) -> ImageHeader {
        if let header = source.header { return header }
        do {
            return try coders.header(for: source.data)
        } catch WebImageError.badImageData(.unsupportedFormat(let format)) {
            throw .unprocessable(format == .undefined ? "the source is not an image"
                                                      : "the source format \(format.rawValue) is not supported")
        } catch {
            throw .unprocessable("the source's header cannot be read: \(error)")
        }
    }

    /// Orientation, rotation, crop and resize of every frame (as `plan`, made on the source's upright size,
    /// says), then the filters.
    private func transform(_ image: Image, storedSize: PixelSize, plan: ProcessingPlan,
                           options: ProcessingOptions) throws(ProxyError) -> Image {
        let upright = uprightSize(storedSize, orientation: image.orientation, rotate: options.rotate)
        // The header told the orientation the plan was made for; a decoder that reports another (a damaged
        // file) gets a plan of its own rather than crops in the wrong axes.
        let plan = upright == plan.source ? plan : ProcessingPlan(source: upright, options: options,
                                                                  limits: limits(for: options))
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frameCount)
        var smart = SmartPlacement()
        for frame in image.frames {
            var pixels = frame.pixels.converted(to: .rgba8).applying(image.orientation)
            pixels = pixels.applying(Self.orientation(forClockwise: options.rotate))
            pixels = transform(pixels, plan: plan, upright: upright, options: options, smart: &smart)
            frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        return try filter(Image(frames: frames, loopCount: image.loopCount), plan: plan, options: options)
    }

    private func checkPixels(_ size: PixelSize, limit: Int) throws(ProxyError) {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= limit else {
            throw .unprocessable("the source is \(size.width)x\(size.height), over the limit of \(limit) pixels")
        }
    }

    /// The URL's security options that the header and the size alone decide.
    private func checkSecurity(_ security: ProcessingOptions.SecurityLimits, source: SourceBytes,
                               header: ImageHeader) throws(ProxyError) {
        if let limit = security.maxSourceBytes, source.data.count > limit {
            throw .unprocessable("the source is \(source.data.count) bytes, over the URL's limit of \(limit) bytes")
        }
        guard header.frameCount > 1 else { return }
        if let limit = security.maxAnimationFrames, header.frameCount > limit {
            throw .unprocessable("the source has \(header.frameCount) frames, over the URL's limit of \(limit)")
        }
        if let limit = security.maxAnimationFramePixels {
            try checkPixels(header.codedSize, limit: limit)
        }
    }

    /// The first frame cut to what `trim` keeps (a raster in stored orientation, decoded at full size).
    private func trimmed(_ image: Image, _ trim: ProcessingOptions.Trim) throws(ProxyError) -> Image {
        guard let box = RasterOps.trimBox(image.pixels, trim: trim) else {
            throw .unprocessable("trim leaves nothing: every pixel is the border colour")
        }
        return image.with(frames: [ImageFrame(pixels: image.pixels.cropped(to: box), duration: 0)])
    }

    /// The result limits, lowered by the URL's `max_result_dimension`.
    private func limits(for options: ProcessingOptions) -> ProcessingPlan.Limits {
        ProcessingPlan.Limits(maxSide: min(limits.maxSide, options.security.maxResultDimension ?? .max),
                              maxPixels: limits.maxPixels)
    }

    /// Decodes at the smallest size the plan needs (the raster is still in its stored orientation: the plan's
    /// scale applies to both sides alike).
    private func decode(_ data: Data, header: ImageHeader, scale planScale: Double, keepFrames: Bool,
                        readsMetadata: Bool) throws(ProxyError) -> Image {
        let stored = header.pixelSize, scale = min(1, planScale)
        var decodeOptions = ImageDecodeOptions(scaleFactor: 1, firstFrameOnly: !keepFrames,
                                               maxPixelCount: maxSourcePixels, readsMetadata: readsMetadata)
        if scale < 0.95 {
            decodeOptions.thumbnailPixelSize = PixelSize(width: max(1, Int((Double(stored.width) * scale).rounded(.up))),
                                                         height: max(1, Int((Double(stored.height) * scale).rounded(.up))))
        }
        do {
            return try coders.decode(data, options: decodeOptions)
        } catch let error as WebImageError {
            throw .unprocessable(error.description)
        } catch {
            throw .unprocessable("the source cannot be decoded: \(error)")
        }
    }

    private func uprightSize(_ stored: PixelSize, orientation: ImageOrientation, rotate: Int) -> PixelSize {
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
        let resized = Resampler.resample(pixels.cropped(to: region), to: plan.scaled)
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

    /// Blur, sharpen and pixelate (imgproxy's `applyFilters`), then the canvas the plan extends and pads the
    /// result to, then the background.
    private func filter(_ image: Image, plan: ProcessingPlan, options: ProcessingOptions) throws(ProxyError) -> Image {
        var image = image
        if options.blur > 0, let blurred = ImageTransformers.Blur(radius: options.blur).transform(image, forKey: "") {
            image = blurred
        }
        if options.sharpen > 0, let blurred = ImageTransformers.Blur(radius: options.sharpen).transform(image, forKey: "") {
            let frames = zip(image.frames, blurred.frames).map { frame, soft in
                ImageFrame(pixels: RasterOps.sharpen(frame.pixels, blurred: soft.pixels), duration: frame.duration)
            }
            image = image.with(frames: frames)
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
        if let mark = options.watermark, let watermark {
            image = image.with(frames: image.frames.map {
                ImageFrame(pixels: watermark.apply(mark, to: $0.pixels, dprScale: plan.dprScale), duration: $0.duration)
            })
        }
        return image
    }

    private func encode(_ image: Image, as format: ImageFormat, options: ProcessingOptions) throws(ProxyError) -> Data {
        let quality = self.quality.quality(for: format, options: options)
        // AVIF at libavif's default speed costs several times WebP's CPU per request; speed 10 keeps a busy
        // service's latency near the other formats' (larger files, as imgproxy's fast AVIF settings).
        let encodeOptions = ImageEncodeOptions(quality: Double(quality) / 100, backgroundColor: options.background,
                                               maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                                               firstFrameOnly: format == .jpeg,
                                               effort: format == .avif ? .fastest : nil)
        do {
            return try coders.encode(image, as: format, options: encodeOptions)
        } catch {
            throw .unprocessable("cannot encode the result as \(format.rawValue): \(error)")
        }
    }
}
