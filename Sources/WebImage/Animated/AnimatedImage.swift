import Foundation
import Synchronization

/// An animation whose frames are decoded on demand (SDWebImage's `SDAnimatedImage`).
///
/// Keeps the original bytes untouched and decodes frame *i* only when asked, through the format's animated
/// coder, so a 500-frame GIF costs one frame of memory until someone wants more. ``preloadAllFrames()``
/// trades memory for instant access; ``unloadAllFrames()`` gives it back.
///
/// ```swift
/// let animation = try AnimatedImage(data: gifData)
/// let player = AnimatedImagePlayer(provider: animation)
/// ```
public final class AnimatedImage: AnimatedFrameProvider, Codable {
    /// The bytes it was created from, byte-identical.
    public let data: Data
    public let format: ImageFormat
    /// Points-to-pixels factor: the given one, else from an `@2x`/`@3x` file name, else 1.
    public let scale: Double
    private let decoder: any AnimatedImageDecoder
    private let loadedFrames = Mutex<[Int: PixelBuffer]>([:])

    /// Reads an animation (GIF, APNG, animated WebP) or a still image (one frame).
    ///
    /// Throws ``WebImageError/badImageData(_:)`` for bytes no coder can decode (garbage), for vector images
    /// (SVG, PDF: SDAnimatedImage's rule) and for an animation over `options`' animation limits
    /// (``ImageDecodeOptions/maxFrameCount``, ``ImageDecodeOptions/maxAnimationPixelCount``), which are checked
    /// from its headers.
    public init(data: Data, scale: Double? = nil, options: ImageDecodeOptions = ImageDecodeOptions(),
                coders: CodersManager = .shared) throws {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let animated = try coders.animatedDecoder(for: data, options: options)
        if let animated {
            decoder = animated
        } else {
            let still = try coders.decode(data, options: options)
            // SDAnimatedImage takes no vector image: its raster would be fixed at one size.
            guard !still.isVector else { throw WebImageError.badImageData(.unsupportedFormat(still.format)) }
            decoder = DecodedFramesDecoder(still)
        }
        self.data = data
        format = decoder.format
        var resolved = options
        resolved.scaleFactor = scale ?? options.scaleFactor
        self.scale = resolved.resolvedScale
    }

    /// Reads a file; the scale comes from an `@2x`/`@3x` name unless given.
    ///
    /// Reads at most `maxBytes` (default ``FileTransport/defaultMaxBytes``), failing with `responseTooLarge`
    /// (2101) past it — devices and pipes included — and with `invalidDownloadResponse` (2003) when the file
    /// cannot be read.
    public convenience init(contentsOf url: URL, scale: Double? = nil, maxBytes: Int = FileTransport.defaultMaxBytes,
                            coders: CodersManager = .shared) throws {
        let data = try BoundedFileReader.readAll(url.path, maxBytes: maxBytes)
        try self.init(data: data, scale: scale, options: ImageDecodeOptions(cacheKey: url.lastPathComponent),
                      coders: coders)
    }

    public var frameCount: Int { decoder.frameCount }
    public var loopCount: Int { decoder.loopCount }
    public var pixelSize: PixelSize { decoder.pixelSize }
    public var hasAlpha: Bool { decoder.hasAlpha }
    public var isAnimated: Bool { frameCount > 1 }
    /// The logical size: pixels ÷ scale.
    public var size: (width: Double, height: Double) {
        (Double(pixelSize.width) / scale, Double(pixelSize.height) / scale)
    }

    public func frameDuration(at index: Int) -> Double { decoder.frameDuration(at: index) }

    /// Frame `index`: from the preloaded set if there, else decoded now (and not kept).
    public func frame(at index: Int) throws -> PixelBuffer {
        guard index >= 0 && index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        if let loaded = loadedFrames.withLock({ $0[index] }) { return loaded }
        return try decoder.frame(at: index)
    }

    /// Decodes every frame now and keeps them; later ``frame(at:)`` calls cost nothing.
    public func preloadAllFrames() throws {
        for index in 0..<frameCount where loadedFrames.withLock({ $0[index] }) == nil {
            let frame = try decoder.frame(at: index)
            loadedFrames.withLock { $0[index] = frame }
        }
    }

    /// Drops the preloaded frames.
    public func unloadAllFrames() {
        loadedFrames.withLock { $0.removeAll() }
    }

    public var isAllFramesLoaded: Bool { loadedFrames.withLock { $0.count } == frameCount }

    /// All frames as a regular ``Image`` (decoding whatever is not preloaded), carrying ``data`` as its
    /// ``Image/animatedImageData`` so a cache stores these bytes rather than re-encoded frames.
    public func makeImage() throws -> Image {
        let frames = try (0..<frameCount).map { ImageFrame(pixels: try frame(at: $0), duration: frameDuration(at: $0)) }
        return Image(frames: frames, scale: scale, loopCount: loopCount, format: format, hasAlpha: hasAlpha,
                     animatedImageData: data)
    }

    private enum CodingKeys: String, CodingKey { case data, scale }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(data: container.decode(Data.self, forKey: .data), scale: container.decode(Double.self, forKey: .scale))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(scale, forKey: .scale)
    }
}
