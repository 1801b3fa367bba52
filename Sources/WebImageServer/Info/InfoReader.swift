import Crypto
import Foundation
import WebImage

/// Makes `/info`'s answer from a source's bytes on a worker thread: the cheap fields from the header and the
/// metadata blocks (no pixel decoded), the slow ones from the page decoded once, upright, within the source
/// limits.
struct InfoReader: Sendable {
    let processor: ImageProcessor
    /// The operator's video frame (``ProcessingOptions/videoThumbnailSecond`` and keyframes), when the URL gives
    /// none.
    let videoDefaults: ProcessingOptions

    /// The answer for `source`.
    func answer(_ source: SourceBytes, options: InfoOptions) throws(ProxyError) -> InfoAnswer {
        try options.hashsum?.check(source.data)
        let header = try processor.header(of: source)
        // A video's container and streams, probed in its child.
        let video = header.format.isVideo ? try VideoInfo(probing: source.data, with: processor.coders) : nil
        var answer = InfoAnswer()
        if options.size { answer.size = source.data.count }
        if options.format {
            answer.format = video?.formats ?? header.format.rawValue
            answer.mimeType = header.format.mimeType
        }
        if options.dimensions {
            answer.width = header.displayedSize.width
            answer.height = header.displayedSize.height
            answer.orientation = header.orientation.rawValue
        }
        if let video, options.videoMeta {
            answer.videoMeta = video.meta
            answer.videoStreams = video.streams
        }
        addMetadata(source.data, format: header.format, options: options, to: &answer)
        if options.colorspace { answer.colorspace = "srgb" }
        if options.bands { answer.bands = header.hasAlpha ? 4 : 3 }
        if options.sampleFormat { answer.sampleFormat = header.bitDepth > 8 ? "ushort" : "uchar" }
        if options.pagesNumber { answer.pagesNumber = max(header.frameCount, header.pageCount) }
        if options.alpha { answer.alpha = AlphaInfo(alpha: header.hasAlpha) }
        // imgproxy leaves a video's digests out rather than read all of it.
        if !options.hashsums.isEmpty, video == nil {
            answer.hashsums = Dictionary(uniqueKeysWithValues: options.hashsums.map { algorithm in
                (algorithm.rawValue, ProcessingOptions.Hashsum(algorithm: algorithm,
                                                               digest: algorithm.digest(source.data)).hex)
            })
        }
        if let crop = options.crop, crop.gravity != .smart {
            answer.crop = InfoCrop.rectangle(crop, in: header.displayedSize)
        }
        if options.decodes { try addPixelFields(source, header: header, options: options, to: &answer) }
        return answer
    }

    private func addMetadata(_ data: Data, format: ImageFormat, options: InfoOptions, to answer: inout InfoAnswer) {
        guard options.exif || options.iptc || options.xmp,
              let metadata = SourceMetadata.read(data, format: format) else { return }
        if options.exif, let exif = metadata.exif {
            let tags = InfoEXIF.tags(exif, canonicalNames: options.exifCanonicalNames)
            if !tags.isEmpty { answer.exif = tags }
        }
        if options.iptc {
            if let iptc = metadata.iptc {
                let fields = InfoIPTC.fields(iptc)
                if !fields.isEmpty { answer.iptc = fields }
            }
            if format == .jpeg, let resource = SourceMetadata.photoshopResolution(inJPEG: data),
               let resolution = InfoIPTC.resolution(resource) {
                answer.photoshop = PhotoshopInfo(resolution: resolution)
            }
        }
        if options.xmp, let xmp = metadata.xmp {
            let properties = InfoXMP.properties(xmp)
            if !properties.isEmpty { answer.xmp = properties }
        }
    }

    private func addPixelFields(_ source: SourceBytes, header: ImageHeader, options: InfoOptions,
                                to answer: inout InfoAnswer) throws(ProxyError) {
        let pixels = try uprightPixels(source, header: header, options: options)
        if options.alpha, options.checkTransparency {
            answer.alpha = AlphaInfo(alpha: header.hasAlpha, transparent: header.hasAlpha && InfoColors.isTransparent(pixels))
        }
        if let crop = options.crop, crop.gravity == .smart { answer.crop = InfoCrop.smart(crop, in: pixels) }
        if options.palette > 0 { answer.palette = try InfoColors.palette(pixels, colors: options.palette) }
        if options.average {
            answer.average = InfoColors.average(pixels, ignoringTransparent: options.averageIgnoresTransparent)
        }
        if options.dominantColors {
            answer.dominantColors = DominantColors.swatches(pixels, buildMissing: options.buildMissedColors)
        }
        if options.blurHashX > 0 { answer.blurhash = BlurHash.encode(pixels, x: options.blurHashX, y: options.blurHashY) }
        if options.thumbHash { answer.thumbHash = ThumbHash.encode(pixels) }
        if options.perceptualHash { answer.perceptualHash = PerceptualHash.hash(pixels) }
    }

    /// The `page` (or frame; a video's at its second) of the source, decoded whole and turned upright, as straight RGBA8; the source
    /// limits checked first (422).
    private func uprightPixels(_ source: SourceBytes, header: ImageHeader,
                               options: InfoOptions) throws(ProxyError) -> PixelBuffer {
        let page = options.page
        let pages = max(header.frameCount, header.pageCount)
        guard page < pages else {
            throw .unprocessable("page \(page) is past the source's \(pages) page\(pages == 1 ? "" : "s")")
        }
        try processor.checkSource(source, header: header, frames: 1, options: ProcessingOptions())
        let image: Image
        if page > 0 {
            let options = ImageDecodeOptions(scaleFactor: 1, firstFrameOnly: false, maxPixelCount: processor.maxSourcePixels)
            do {
                guard let frames = try processor.frames(page..<(page + 1), of: source.data, options: options) else {
                    throw ProxyError.unprocessable("the source's pages cannot be read one by one")
                }
                image = frames
            } catch let error as ProxyError {
                throw error
            } catch {
                throw .unprocessable("page \(page) cannot be decoded: \(error)")
            }
        } else {
            image = try processor.decode(source.data, header: header, scale: 1, frames: 1, keepsProfile: false,
                                         thumbnail: false, readsMetadata: false,
                                         video: (options.videoThumbnailSecond ?? videoDefaults.videoThumbnailSecond,
                                                 options.videoThumbnailKeyframes ?? videoDefaults.videoThumbnailKeyframes))
        }
        guard let first = image.frames.first?.pixels else { throw .unprocessable("the source decodes to no image") }
        return first.converted(to: .rgba8).applying(image.orientation)
    }
}

/// `crop`'s answer: where processing's crop of the upright image lies, in fractions of its sides.
enum InfoCrop {
    /// The region processing's plan cuts by `crop`'s size and gravity.
    static func region(_ crop: ProcessingOptions.Crop, in size: PixelSize) -> PixelRect {
        var options = ProcessingOptions()
        options.crop = crop
        return ProcessingPlan(source: size, options: options, limits: ProcessingPlan.Limits(maxSide: .max, maxPixels: .max)).region
    }

    static func rectangle(_ crop: ProcessingOptions.Crop, in size: PixelSize) -> RelativeRect {
        relative(region(crop, in: size), of: size)
    }

    /// Smart gravity: the region's size from the plan, its place where ``AttentionCrop`` finds the most detail.
    static func smart(_ crop: ProcessingOptions.Crop, in pixels: PixelBuffer) -> RelativeRect {
        let planned = region(crop, in: pixels.size)
        let box = PixelSize(width: planned.width, height: planned.height)
        let origin = box == pixels.size ? (x: 0, y: 0) : AttentionCrop.origin(of: box, in: pixels)
        return relative(PixelRect(x: origin.x, y: origin.y, width: box.width, height: box.height), of: pixels.size)
    }

    private static func relative(_ rect: PixelRect, of size: PixelSize) -> RelativeRect {
        RelativeRect(left: Double(rect.x) / Double(size.width), top: Double(rect.y) / Double(size.height),
                     width: Double(rect.width) / Double(size.width), height: Double(rect.height) / Double(size.height))
    }
}
