import Foundation
import WebImageCore

/// One-shot GIF decoding: every frame (or the first) composited onto the logical screen.
///
/// The records are walked first (``GIFFrameWalk``) so the animation limits and the output size are settled
/// before any pixel is decoded. At full size every frame keeps its own raster; when the options ask for a
/// smaller size, frames are composited on one full-size canvas and only their scaled copies are kept, and a
/// single frame is scaled row by row without a full-size canvas at all (``GIFScaledStill``).
enum GIFDecoding {
    /// Decodes `data` as ``GIFCoder/decode(_:options:)`` describes.
    static func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        var store = RasterStore.fresh
        return try decode(data, store: &store, options: options)
    }

    /// Decodes `data` as ``GIFCoder/decode(_:options:)`` describes, painting the first frame into `store`.
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { raw in
            let (screen, frameCount, loopCount) = try GIFReader.read(raw) { reader in
                (reader.screen, try GIFFrameWalk.headers(reader, options: options).count, reader.loopCount ?? 1)
            }
            let target = options.targetSize(forSource: screen, frameCount: frameCount)
            let image = try GIFReader.read(raw) { reader in
                if frameCount == 1, let target {
                    return try decodeScaledStill(reader, target: target, loopCount: loopCount, options: options)
                }
                return try decodeFrames(reader, frameCount: frameCount, target: target, store: &store, options: options)
            }
            return options.finish(image, targetSize: target)
        }
    }

    /// The first frame alone, scaled to `target` while its rows are decoded; `loopCount` is the walk's (which
    /// also saw the records after the frame).
    private static func decodeScaledStill(_ reader: GIFReader, target: PixelSize, loopCount: Int,
                                          options: ImageDecodeOptions) throws -> Image {
        var result: Image?
        try reader.forEachFrame { header in
            try checkFrameSize(header, options: options)
            let pixels = try GIFScaledStill.decode(reader, header: header, screen: reader.screen, target: target,
                                                    kernel: options.thumbnailKernel)
            var alpha = GIFAlphaTracker(screen: reader.screen)
            alpha.add(header)
            result = Image(frames: [ImageFrame(pixels: pixels)], loopCount: loopCount, format: .gif,
                           hasAlpha: alpha.hasAlpha(frameCount: 1))
            return false
        }
        guard let result else { throw WebImageError.badImageData(.corrupt("the GIF contains no image")) }
        return result
    }

    /// Up to `frameCount` frames composited in order on one canvas: full-size copies of it when `target` is
    /// nil, else copies scaled to `target`.
    private static func decodeFrames(_ reader: GIFReader, frameCount: Int, target: PixelSize?,
                                     store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let screen = reader.screen
        try options.checkPixelCount(width: screen.width, height: screen.height)
        // The canvas owns the store's raster while painting; the first full-size frame keeps it (later frames
        // are copies made when the next frame is drawn), and the store gets it back even when decoding fails.
        var canvas = GIFCanvas(transparent: store.take(width: screen.width, height: screen.height) {
            $0.initializeMemory(as: UInt8.self, repeating: 0)
        })
        var frames: [ImageFrame] = []
        defer { store.keep(target == nil ? frames.first?.pixels ?? canvas.pixels : canvas.pixels) }
        var alpha = GIFAlphaTracker(screen: screen)
        var indices: [UInt8] = []
        try reader.forEachFrame { header in
            try checkFrameSize(header, options: options)
            // One index buffer for all frames; readPixels fills every row it reports, so no clearing.
            let count = header.width * header.height
            if indices.count < count { indices = [UInt8](repeating: 0, count: count) }
            try indices.withUnsafeMutableBufferPointer { try reader.readPixels(of: header, into: $0) }
            indices.withUnsafeBufferPointer {
                canvas.draw(header, indices: UnsafeBufferPointer(rebasing: $0[..<count]), fileRows: header.height)
            }
            alpha.add(header)
            let pixels = target.map { Resampler.resample(canvas.pixels, to: $0, kernel: options.thumbnailKernel) }
                ?? canvas.pixels
            frames.append(ImageFrame(pixels: pixels, duration: header.duration))
            return !options.firstFrameOnly && frames.count < frameCount
        }
        if frames.count == 1 { frames[0].duration = 0 }
        return Image(frames: frames, loopCount: reader.loopCount ?? 1, format: .gif,
                     hasAlpha: alpha.hasAlpha(frameCount: frames.count))
    }

    /// Rejects a frame whose index buffer would be over the pixel limit (its rectangle may exceed the screen).
    static func checkFrameSize(_ header: GIFFrameHeader, options: ImageDecodeOptions) throws {
        guard header.width > 0, header.height > 0 else { return }
        try options.checkPixelCount(width: header.width, height: header.height)
    }
}

/// Works out whether a GIF can show transparency without scanning pixels.
///
/// True when a frame has a transparent index, the first frame leaves part of the screen uncovered, or a
/// frame before the last clears its area to transparent (disposal to background, or undoing the first frame).
struct GIFAlphaTracker {
    let screen: PixelSize
    private var count = 0
    private var transparentIndex = false
    private var firstFrameCoversScreen = false
    /// Index of the last frame that leaves its area transparent for the next one.
    private var lastClearingFrame: Int?

    init(screen: PixelSize) {
        self.screen = screen
    }

    mutating func add(_ header: GIFFrameHeader) {
        if count == 0 { firstFrameCoversScreen = ClipArea(frame: header, screen: screen).covers(screen) }
        if header.transparentIndex != nil { transparentIndex = true }
        // Clearing the area, or undoing the first frame, leaves transparent pixels for the next frame.
        if header.disposal == .background || (header.disposal == .previous && count == 0) { lastClearingFrame = count }
        count += 1
    }

    func hasAlpha(frameCount: Int) -> Bool {
        transparentIndex || !firstFrameCoversScreen || (lastClearingFrame.map { $0 < frameCount - 1 } ?? false)
    }
}
