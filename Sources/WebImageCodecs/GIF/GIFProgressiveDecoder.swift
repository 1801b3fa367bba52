import Foundation
import WebImageCore

/// Shows a GIF while it downloads: the first frame's rows (or interlaced passes) as they arrive, then every
/// frame as soon as it is complete.
///
/// Each call resumes giflib where the last complete frame ended (the canvas is kept), so the bytes of a
/// complete frame are decoded once; a frame cut off by the end of the buffer is retried on the next call.
/// A partial image (``Image/isIncremental``) is returned when more rows of the first frame, or more frames,
/// became decodable, else nil. With `isFinished` the result is exactly ``GIFCoder``'s one-shot decode.
final class GIFProgressiveDecoder: ProgressiveImageDecoder {
    private let options: ImageDecodeOptions
    private var canvas: GIFCanvas?
    private var alpha: GIFAlphaTracker?
    /// Complete frames so far, at ``frameSize``.
    private var frames: [ImageFrame] = []
    /// The size complete frames are kept at: a thumbnail or scale-down size for one frame (each partial
    /// image is brought to the final size from there), nil for full size.
    private var frameSize: PixelSize?
    /// The pixels compositing the complete frames took, against ``ImageDecodeOptions/maxAnimationPixelCount``.
    private var compositedPixels = 0
    private var loopCount: Int?
    /// Where the records after the last complete frame start (nil before the first frame is complete).
    private var resumeOffset: Int?
    /// File-order rows of the incomplete first frame already shown.
    private var shownRows = 0
    /// Set at the trailer, after `firstFrameOnly`'s frame, or when a frame after a good one is damaged:
    /// nothing more to show before the final decode.
    private var isDone = false

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        if isFinished { return try GIFDecoding.decode(data, options: options) }
        guard !isDone else { return nil }
        do {
            return try data.withUnsafeBytes { raw in try GIFReader.read(raw) { try advance($0) } }
        } catch let error as WebImageError where error.isTruncation {
            return nil
        } catch let error as WebImageError where error.endsFrameWalk && !frames.isEmpty {
            // Damaged after a good frame: keep showing what there is; the final decode decides.
            isDone = true
            return nil
        }
    }

    /// Decodes what the buffer newly allows and returns the partial image to show, or nil.
    private func advance(_ reader: GIFReader) throws -> Image? {
        let screen = reader.screen
        if canvas == nil {
            try options.checkPixelCount(width: screen.width, height: screen.height)
            canvas = GIFCanvas(size: screen)
            alpha = GIFAlphaTracker(screen: screen)
            frameSize = options.targetSize(forSource: screen)
        }
        if let resumeOffset { reader.seek(toRecordAt: resumeOffset) }
        let knownFrames = frames.count
        var preview: (pixels: PixelBuffer, rows: Int)?
        do {
            while !isDone {
                guard let header = try reader.nextFrame() else {
                    isDone = true
                    break
                }
                loopCount = reader.loopCount ?? loopCount
                preview = try decodeFrame(header, reader)
                if preview != nil { break }
                isDone = options.firstFrameOnly
            }
        } catch let error as WebImageError where error.isTruncation {
            // The buffer ends inside a record: what was complete before it stands.
        }
        if frames.count > knownFrames { return image(of: frames, screen: screen) }
        guard let preview, preview.rows > shownRows else { return nil }
        shownRows = preview.rows
        let image = Image(frames: [ImageFrame(pixels: preview.pixels)], loopCount: loopCount ?? 1, format: .gif,
                          hasAlpha: true, isIncremental: true)
        return options.finish(image, sourceSize: screen)
    }

    /// Decodes one frame: a complete one is drawn and kept (nil is returned); a first frame cut off by the end
    /// of the buffer is returned drawn as far as its rows go.
    private func decodeFrame(_ header: GIFFrameHeader, _ reader: GIFReader) throws -> (pixels: PixelBuffer, rows: Int)? {
        guard var drawn = canvas else { return nil }
        try GIFDecoding.checkFrameSize(header, options: options)
        // The final decode refuses an animation over the limits from its headers; partial images stop there too.
        let pixels = compositedPixels + max(drawn.size.pixelCount, header.width * header.height)
        do {
            try options.checkAnimation(frameCount: frames.count + 1, pixelCount: pixels)
        } catch {
            isDone = true
            throw error
        }
        var indices = [UInt8](repeating: 0, count: header.width * header.height)
        do {
            try indices.withUnsafeMutableBufferPointer { try reader.readPixels(of: header, into: $0) }
        } catch let error as WebImageError where error.isTruncation && frames.isEmpty {
            indices.withUnsafeBufferPointer { drawn.draw(header, indices: $0, fileRows: reader.rowsRead) }
            return (drawn.pixels, reader.rowsRead)
        }
        indices.withUnsafeBufferPointer { drawn.draw(header, indices: $0, fileRows: header.height) }
        canvas = drawn
        alpha?.add(header)
        compositedPixels = pixels
        let kept = frameSize.map { Resampler.resample(drawn.pixels, to: $0, kernel: options.thumbnailKernel) } ?? drawn.pixels
        frames.append(ImageFrame(pixels: kept, duration: header.duration))
        resumeOffset = reader.position
        return nil
    }

    private func image(of frames: [ImageFrame], screen: PixelSize) -> Image {
        var shown = frames
        if shown.count == 1 { shown[0].duration = 0 }
        let image = Image(frames: shown, loopCount: loopCount ?? 1, format: .gif,
                          hasAlpha: alpha?.hasAlpha(frameCount: frames.count) ?? true, isIncremental: true)
        return options.finish(image, sourceSize: screen)
    }
}

extension WebImageError {
    /// Whether the bytes ended before the image did.
    var isTruncation: Bool {
        if case .badImageData(.truncated) = self { return true }
        return false
    }
}
