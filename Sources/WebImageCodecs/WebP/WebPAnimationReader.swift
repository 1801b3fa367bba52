import CWebP
import Foundation
import WebImageCore

/// A sequential reader of an animated WebP's composited frames over libwebp's `WebPAnimDecoder`.
///
/// The animation decoder does the full-canvas compositing (dispose and blend) on the canvas it keeps (with a
/// second one for disposal), whatever the frame count; this type owns a stable copy of the bytes (the decoder keeps pointers into them) and turns each canvas
/// into a ``PixelBuffer``: a copy at full size, or, when a target size is given, a scaled copy read straight
/// from libwebp's canvas. The frame count and canvas are checked against the options' animation limits
/// from the container before the animation decoder (and its canvases) exists. Not thread-safe: callers
/// serialise access.
final class WebPAnimationReader {
    let canvasSize: PixelSize
    /// The size frames are delivered at (the canvas, or the options' target size).
    let outputSize: PixelSize
    /// The filter frames are brought to ``outputSize`` with.
    let kernel: Resampler.Kernel
    let frameCount: Int
    let loopCount: Int
    /// Whether the container's header announces transparency.
    let hasAlpha: Bool
    /// Seconds each frame is shown (SDWebImage's rule: under 11 ms means 100 ms).
    let durations: [Double]
    /// The index the next `next()` call returns.
    private(set) var nextIndex = 0

    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer

    /// Parses the container; throws a typed error when it is not a readable animation.
    init(_ data: Data, options: ImageDecodeOptions) throws {
        let features = try WebPStatus.requiredFeatures(data)
        try options.checkPixelCount(width: Int(features.width), height: Int(features.height))
        try Self.checkLimits(data, options: options)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        var decoderOptions = WebPAnimDecoderOptions()
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var info = WebPAnimInfo()
        guard WebPAnimDecoderOptionsInitInternal(&decoderOptions, WEBP_DEMUX_ABI_VERSION) != 0 else {
            bytes.deallocate()
            throw WebImageError.badImageData(.corrupt("libwebp demux version mismatch"))
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNewInternal(&webpData, &decoderOptions, WEBP_DEMUX_ABI_VERSION) else {
            bytes.deallocate()
            throw WebImageError.badImageData(.corrupt("WebP animation container is invalid or truncated"))
        }
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0 else {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
            throw WebImageError.badImageData(.corrupt("WebP animation has no frames"))
        }
        self.decoder = decoder
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        frameCount = Int(info.frame_count)
        loopCount = Int(info.loop_count)
        hasAlpha = features.has_alpha != 0
        outputSize = options.targetSize(forSource: canvasSize, frameCount: options.firstFrameOnly ? 1 : frameCount)
            ?? canvasSize
        kernel = options.thumbnailKernel
        durations = Self.readDurations(WebPAnimDecoderGetDemuxer(decoder), count: frameCount)
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// ``outputSize`` when it differs from the canvas (the size to finish the image at), else nil.
    var targetSize: PixelSize? { outputSize == canvasSize ? nil : outputSize }

    /// Frame `nextIndex`, composited, at ``outputSize``; advances by one.
    func next() throws -> PixelBuffer {
        let canvas = UnsafeRawBufferPointer(start: try advance(), count: canvasSize.pixelCount * 4)
        guard outputSize == canvasSize else {
            return Resampler.resample(canvas, size: canvasSize, format: .rgba8, to: outputSize, kernel: kernel)
        }
        return PixelBuffer(width: canvasSize.width, height: canvasSize.height, format: .rgba8) { out in
            out.copyMemory(from: canvas)
        }
    }

    /// Composites frame `nextIndex` without copying it out (to reach a later frame); advances by one.
    func skip() throws {
        _ = try advance()
    }

    private func advance() throws -> UnsafeMutablePointer<UInt8> {
        guard nextIndex < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: nextIndex, count: frameCount))
        }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            let failed = nextIndex
            rewind()
            throw WebImageError.badImageData(.corrupt("WebP animation frame \(failed) cannot be decoded"))
        }
        nextIndex += 1
        return canvas
    }

    /// Starts again from the first frame.
    func rewind() {
        WebPAnimDecoderReset(decoder)
        nextIndex = 0
    }

    /// Refuses an animation over the options' frame-count or total-pixel limits, reading only the container.
    private static func checkLimits(_ data: Data, options: ImageDecodeOptions) throws {
        // A container the demuxer rejects fails below, where the animation decoder reports it.
        guard let counts = containerCounts(data) else { return }
        try options.checkAnimation(frameCount: options.firstFrameOnly ? min(1, counts.frames) : counts.frames,
                                   canvas: counts.canvas)
    }

    /// The frame count and canvas the demuxer reads from the chunks (no pixel decoding); nil when it rejects them.
    static func containerCounts(_ data: Data) -> (frames: Int, canvas: PixelSize)? {
        data.withUnsafeBytes { raw -> (frames: Int, canvas: PixelSize)? in
            var webpData = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demuxer = WebPDemuxInternal(&webpData, 0, nil, WEBP_DEMUX_ABI_VERSION) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            return (Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT)),
                    PixelSize(width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                              height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))))
        }
    }

    /// Each frame's display time, read from the demuxer's frame headers (no pixel decoding).
    private static func readDurations(_ demuxer: OpaquePointer?, count: Int) -> [Double] {
        var durations = [Double](repeating: 0.1, count: count)
        guard let demuxer else { return durations }
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return durations }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            let index = Int(iterator.frame_num) - 1
            if durations.indices.contains(index) {
                durations[index] = WebPStatus.frameDuration(milliseconds: iterator.duration)
            }
        } while WebPDemuxNextFrame(&iterator) != 0
        return durations
    }
}
