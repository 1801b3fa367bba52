import Foundation
import WebImage
import WebImageVideo

/// Reading and checking the source: its header, the limits it must be within, and the decode at the size the
/// plan needs.
extension ImageProcessor {
    /// A video source while video sources are off (no video coder reads its header).
    static let videoSourcesOff = ProxyError.unprocessable(
        "video sources are off on this server (the operator turns them on with --video-thumbnails, "
            + "IMGPROXY_ENABLE_VIDEO_THUMBNAILS)")

    /// The formats whose embedded thumbnail `enforce_thumbnail` uses (imgproxy's `SupportsThumbnail`).
    static let thumbnailFormats: Set<ImageFormat> = [.heic, .heif, .avif]

    /// The source's header: the one read while fetching it, else read now by the coders (no pixel decoded).
    func header(of source: SourceBytes) throws(ProxyError) -> ImageHeader {
        if let header = source.header { return header }
        do {
            return try coders.header(for: source.data)
        } catch WebImageError.badImageData(.unsupportedFormat(let format)) {
            if format == .pdf, vectors.pdf == nil { throw Self.pdfSourcesOff }
            if format.isVideo { throw Self.videoSourcesOff }
            throw .unprocessable(format == .undefined ? "the source is not an image"
                                                      : "the source format \(format.rawValue) is not supported")
        } catch {
            throw .unprocessable("the source's header cannot be read: \(error)")
        }
    }

    /// How many frames are processed: the first `max_animation_frames` (the operator's, lowered by the URL's),
    /// as imgproxy loads them; 1 for a still, when the limit is 1, or with `disable_animation`.
    func framesLoaded(_ header: ImageHeader, options: ProcessingOptions) -> Int {
        if options.disableAnimation { return 1 }
        let limit = min(animation.maxFrames, options.security.maxAnimationFrames ?? .max)
        return max(1, min(header.frameCount, limit))
    }

    /// imgproxy's security checks on what will be processed: the file size, then the resolution — each frame's
    /// against `max_animation_frame_resolution` when it is set and several frames are, else the frames'
    /// together against `max_src_resolution`.
    func checkSource(_ source: SourceBytes, header: ImageHeader, frames: Int,
                     options: ProcessingOptions) throws(ProxyError) {
        try checkSourceBytes(source, options: options)
        let security = options.security
        let size = header.codedSize
        let framePixels = [animation.maxFramePixels > 0 ? animation.maxFramePixels : nil,
                           security.maxAnimationFramePixels].compactMap { $0 }.min()
        if frames > 1, let framePixels {
            try checkPixels(size, frames: 1, limit: framePixels, what: "each frame of the source")
        } else {
            try checkPixels(size, frames: frames, limit: min(maxSourcePixels, security.maxSourcePixels ?? .max),
                            what: frames > 1 ? "the \(frames) frames processed" : "the source")
        }
    }

    /// The URL's `max_src_file_size`, the one check every source passes, vectors included.
    func checkSourceBytes(_ source: SourceBytes, options: ProcessingOptions) throws(ProxyError) {
        if let limit = options.security.maxSourceBytes, source.data.count > limit {
            throw .unprocessable("the source is \(source.data.count) bytes, over the URL's limit of \(limit) bytes")
        }
    }

    /// `count` pages of the source's size together against the source resolution limits.
    func checkPages(_ header: ImageHeader, count: Int, options: ProcessingOptions) throws(ProxyError) {
        try checkPixels(header.codedSize, frames: count, limit: min(maxSourcePixels, options.security.maxSourcePixels ?? .max),
                        what: "the \(count) pages processed")
    }

    /// `count` pages stacked into `size` (a PDF's: each page's size is known) against the source resolution limits.
    func checkStack(_ size: PixelSize, count: Int, options: ProcessingOptions) throws(ProxyError) {
        try checkPixels(size, frames: 1, limit: min(maxSourcePixels, options.security.maxSourcePixels ?? .max),
                        what: "the stack of \(count) pages")
    }

    private func checkPixels(_ size: PixelSize, frames: Int, limit: Int, what: String) throws(ProxyError) {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        let (total, overflowTotal) = pixels.multipliedReportingOverflow(by: frames)
        guard !overflow, !overflowTotal, total <= limit else {
            let frameText = frames > 1 ? " × \(frames)" : ""
            throw .unprocessable("\(what) is \(size.width)x\(size.height)\(frameText), over the limit of \(limit) pixels")
        }
    }

    /// The first frame cut to what `trim` keeps (a raster in stored orientation, decoded at full size); all
    /// border, it stays whole, as in imgproxy.
    func trimmed(_ image: Image, _ trim: ProcessingOptions.Trim) -> Image {
        let pixels = TrimBox.find(in: image.pixels, trim: trim).map { image.pixels.cropped(to: $0) } ?? image.pixels
        return image.with(frames: [ImageFrame(pixels: pixels, duration: 0)])
    }

    /// The result limits, lowered by the URL's `max_result_dimension`; the pixel limit bounds all `frames`
    /// together, so an enlarged animation cannot hold frames × the limit in a worker's memory.
    func limits(for options: ProcessingOptions, frames: Int = 1) -> ProcessingPlan.Limits {
        ProcessingPlan.Limits(maxSide: min(limits.maxSide, options.security.maxResultDimension ?? .max),
                              maxPixels: max(1, limits.maxPixels / max(1, frames)))
    }

    /// Decodes `frames` frames (the first ones) at the smallest size the plan needs (the raster is still in its
    /// stored orientation: the plan's scale applies to both sides alike), or at `exactSize` when the plan
    /// resizes the whole source to it, with `kernel` after what the decoder shrinks on load; keeping the source's
    /// colour profile when `keepsProfile`, or the first embedded thumbnail when `thumbnail` and the source has one.
    /// An SVG source is rendered at `vectorRaster` (a PDF's pages are drawn by `drawPDF`).
    func decode(_ data: Data, header: ImageHeader, scale planScale: Double, kernel: Resampler.Kernel = .lanczos3,
                exactSize: PixelSize? = nil, frames: Int,
                keepsProfile: Bool, thumbnail: Bool, readsMetadata: Bool, video: (second: Double, keyframes: Bool) = (1, false),
                vectorRaster: PixelSize? = nil) throws(ProxyError) -> Image {
        let stored = header.pixelSize, scale = min(1, planScale)
        var options = ImageDecodeOptions(scaleFactor: 1, firstFrameOnly: frames == 1, maxPixelCount: maxSourcePixels,
                                         readsMetadata: readsMetadata)
        options.colorSpace = keepsProfile ? .preserve : .sRGB
        options.thumbnailKernel = kernel
        options.coderOptions[EmbeddedThumbnail.self] = thumbnail
        options.coderOptions[VideoThumbnailSecond.self] = video.second
        options.coderOptions[VideoThumbnailKeyframes.self] = video.keyframes
        if let vectorRaster {
            options.thumbnailPixelSize = vectorRaster
        } else if scale < 0.95 {
            // The plan's exact size is stretched to (its aspect is already in it); else each side rounded up.
            options.thumbnailPixelSize = exactSize
                ?? PixelSize(width: max(1, Int((Double(stored.width) * scale).rounded(.up))),
                             height: max(1, Int((Double(stored.height) * scale).rounded(.up))))
            options.preserveAspectRatio = exactSize == nil
        }
        do {
            if frames > 1, frames < header.frameCount {
                return try firstFrames(frames, of: data, options: options)
            }
            return try coders.decode(data, options: options)
        } catch let error as WebImageError {
            throw .unprocessable(error.description)
        } catch {
            throw .unprocessable("the source cannot be decoded: \(error)")
        }
    }

    /// The first `count` frames of an animation, decoded one by one (the rest are never decoded), at full size.
    private func firstFrames(_ count: Int, of data: Data, options: ImageDecodeOptions) throws -> Image {
        try frames(0..<count, of: data, options: options) ?? coders.decode(data, options: Self.stepping(options))
    }

    /// The frames (pages) in `range` of an animation or a multi-page file, decoded one by one at full size (the
    /// others never are); nil when the file has no frames to step through.
    func frames(_ range: Range<Int>, of data: Data, options: ImageDecodeOptions) throws -> Image? {
        guard let decoder = try coders.animatedDecoder(for: data, options: Self.stepping(options)) else { return nil }
        let frames = try range.clamped(to: 0..<decoder.frameCount).map { index in
            ImageFrame(pixels: try decoder.frame(at: index), duration: decoder.frameDuration(at: index))
        }
        return Image(frames: frames, orientation: decoder.orientation, loopCount: decoder.loopCount,
                     format: decoder.format, hasAlpha: decoder.hasAlpha)
    }

    /// `options` for decoding frame by frame: at full size, and the frames' own limits lifted (the service's
    /// were checked from the header).
    private static func stepping(_ options: ImageDecodeOptions) -> ImageDecodeOptions {
        var options = options
        options.thumbnailPixelSize = nil
        options.maxFrameCount = .max
        options.maxAnimationPixelCount = .max
        return options
    }
}
