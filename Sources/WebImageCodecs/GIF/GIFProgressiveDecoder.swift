import Foundation
import WebImageCore

/// Shows a GIF while it downloads: the first frame's rows (or interlaced passes) as they arrive.
///
/// Each call re-reads the buffer up to the first frame, stopping quietly where the bytes end. A partial image
/// is returned when more rows became decodable; once the first frame is whole, later frames are left to the
/// final decode. With `isFinished` the result is exactly ``GIFCoder``'s one-shot decode.
final class GIFProgressiveDecoder: ProgressiveImageDecoder {
    private let options: ImageDecodeOptions
    /// File-order rows of the first frame already shown.
    private var shownRows = 0
    private var firstFrameComplete = false

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        if isFinished { return try GIFDecoding.decode(data, options: options) }
        guard !firstFrameComplete, let preview = try firstFramePreview(data), preview.rows > shownRows else { return nil }
        shownRows = preview.rows
        firstFrameComplete = preview.isComplete
        let image = Image(frames: [ImageFrame(pixels: preview.pixels)], format: .gif,
                          hasAlpha: !preview.isComplete || preview.hasAlpha, isIncremental: true)
        return options.finish(image, sourceSize: preview.pixels.size)
    }

    /// The first frame composited from the rows decodable so far, or nil when none are.
    private func firstFramePreview(_ data: Data) throws -> GIFPreview? {
        do {
            return try data.withUnsafeBytes { raw in
                try GIFReader.read(raw) { reader -> GIFPreview? in
                    let screen = reader.screen
                    try options.checkPixelCount(width: screen.width, height: screen.height)
                    guard let header = try reader.nextFrame() else { return nil }
                    try GIFDecoding.checkFrameSize(header, options: options)
                    var indices = [UInt8](repeating: 0, count: header.width * header.height)
                    do {
                        try indices.withUnsafeMutableBufferPointer { try reader.readPixels(of: header, into: $0) }
                    } catch WebImageError.badImageData(.truncated) {
                        // Keep the rows read before the bytes ran out.
                    }
                    let rows = reader.rowsRead
                    guard rows > 0 else { return nil }
                    var canvas = GIFCanvas(size: screen)
                    indices.withUnsafeBufferPointer { canvas.draw(header, indices: $0, fileRows: rows) }
                    var alpha = GIFAlphaTracker(screen: screen)
                    alpha.add(header)
                    return GIFPreview(pixels: canvas.pixels, rows: rows, isComplete: rows == header.height,
                                      hasAlpha: alpha.hasAlpha(frameCount: 1))
                }
            }
        } catch WebImageError.badImageData(.truncated) {
            return nil
        }
    }
}

/// The first frame as far as it could be decoded.
private struct GIFPreview {
    var pixels: PixelBuffer
    /// File-order rows decoded.
    var rows: Int
    var isComplete: Bool
    var hasAlpha: Bool
}
