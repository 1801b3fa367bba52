import Foundation
import Synchronization
import WebImageCore

/// Frame-by-frame access to a GIF: parsed once up front (headers and control blocks only, no pixels, within
/// the options' animation limits), each frame decoded and composited on one canvas when asked for.
///
/// The last composited canvas is kept, so playing in order costs one frame decode per frame; going back
/// replays from the nearest earlier key frame (one that covers the screen opaquely, or follows a frame that
/// cleared the whole screen), else from frame 0.
final class GIFAnimatedDecoder: AnimatedImageDecoder {
    let format = ImageFormat.gif
    let pixelSize: PixelSize
    let loopCount: Int
    let hasAlpha: Bool
    private let data: Data
    private let screen: PixelSize
    private let headers: [GIFFrameHeader]
    /// Frames replay can start from (see ``GIFFrameHeader/isKeyFrame(after:screen:)``).
    private let isKeyFrame: [Bool]
    private let playback: Mutex<GIFPlayback>
    /// The filter frames are brought to ``pixelSize`` with.
    private let kernel: Resampler.Kernel

    var frameCount: Int { headers.count }

    init(data: Data, options: ImageDecodeOptions) throws {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let (screen, headers, loopCount) = try data.withUnsafeBytes { raw in
            try GIFReader.read(raw) { reader in
                (reader.screen, try GIFFrameWalk.headers(reader, options: options), reader.loopCount ?? 1)
            }
        }
        var alpha = GIFAlphaTracker(screen: screen)
        headers.forEach { alpha.add($0) }
        self.data = data
        self.screen = screen
        self.headers = headers
        isKeyFrame = headers.indices.map { headers[$0].isKeyFrame(after: $0 > 0 ? headers[$0 - 1] : nil, screen: screen) }
        self.loopCount = loopCount
        hasAlpha = alpha.hasAlpha(frameCount: headers.count)
        pixelSize = options.targetSize(forSource: screen, frameCount: headers.count) ?? screen
        kernel = options.thumbnailKernel
        playback = Mutex(GIFPlayback())
    }

    func frameDuration(at index: Int) -> Double {
        guard headers.count > 1, headers.indices.contains(index) else { return 0 }
        return headers[index].duration
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard headers.indices.contains(index) else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: headers.count))
        }
        // The first frame is painted on an empty screen, so scaling it needs no canvas (nor does a still).
        if index == 0 && pixelSize != screen { return try scaledFirstFrame() }
        let pixels = try playback.withLock { state in try composite(upTo: index, state: &state) }
        return pixels.size == pixelSize ? pixels : Resampler.resample(pixels, to: pixelSize, kernel: kernel)
    }

    private func composite(upTo index: Int, state: inout GIFPlayback) throws -> PixelBuffer {
        var next: Int, canvas: GIFCanvas
        if let drawn = state.drawnIndex, drawn <= index, let kept = state.canvas {
            next = drawn + 1
            canvas = kept
        } else {
            next = isKeyFrame[...index].lastIndex { $0 } ?? 0
            // Let the old canvas go before making the new one.
            state.canvas = nil
            canvas = GIFCanvas(size: screen)
        }
        // Out of the state while drawing: the canvas is then uniquely owned (no copy), and a failure midway
        // leaves nothing half drawn behind.
        state.canvas = nil
        state.drawnIndex = nil
        while next <= index {
            try draw(headers[next], on: &canvas, indices: &state.indices)
            next += 1
        }
        state.canvas = canvas
        state.drawnIndex = index
        return canvas.pixels
    }

    /// The first frame scaled while its rows are decoded, without the full-size canvas.
    private func scaledFirstFrame() throws -> PixelBuffer {
        let header = headers[0], screen = screen, target = pixelSize, kernel = kernel
        return try data.withUnsafeBytes { raw in
            try GIFReader.read(raw) { reader in
                reader.seek(toRecordAt: header.recordOffset)
                guard try reader.nextFrame() != nil else {
                    throw WebImageError.badImageData(.corrupt("GIF frame record not found"))
                }
                return try GIFScaledStill.decode(reader, header: header, screen: screen, target: target, kernel: kernel)
            }
        }
    }

    /// Re-reads one frame's pixels by jumping giflib straight to its record, then paints it.
    private func draw(_ header: GIFFrameHeader, on canvas: inout GIFCanvas, indices: inout [UInt8]) throws {
        let count = header.width * header.height
        if indices.count < count { indices = [UInt8](repeating: 0, count: count) }
        try data.withUnsafeBytes { raw in
            try GIFReader.read(raw) { reader in
                reader.seek(toRecordAt: header.recordOffset)
                guard try reader.nextFrame() != nil else {
                    throw WebImageError.badImageData(.corrupt("GIF frame record not found"))
                }
                try indices.withUnsafeMutableBufferPointer { try reader.readPixels(of: header, into: $0) }
            }
        }
        indices.withUnsafeBufferPointer {
            canvas.draw(header, indices: UnsafeBufferPointer(rebasing: $0[..<count]), fileRows: header.height)
        }
    }
}

/// The mutable half of ``GIFAnimatedDecoder``: the canvas and which frame it shows.
struct GIFPlayback {
    /// Made by the first composite, so that creating a decoder allocates no canvas.
    var canvas: GIFCanvas?
    /// The frame the canvas holds, nil when it must be rebuilt (never drawn, or a frame failed midway).
    var drawnIndex: Int?
    /// Reused palette-index buffer.
    var indices: [UInt8] = []
}
