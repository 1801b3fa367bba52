import Foundation
import Synchronization
import WebImageCore

/// Lazy frame access to an animated PNG: frames are decoded and composited when asked for.
///
/// Asking in order is cheap (each frame is drawn onto the previous canvas); any other frame is replayed from
/// the nearest earlier frame that paints the whole canvas. Thread-safe: the replay state sits behind a mutex.
final class APNGAnimatedDecoder: AnimatedImageDecoder {
    let format = ImageFormat.png
    let pixelSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    private let data: Data
    private let structure: APNGStructure
    /// The size frames are resampled to (thumbnail / scale-down options), nil for full size.
    private let targetSize: PixelSize?
    private let state: Mutex<State>

    private struct State: Sendable {
        var player: APNGPlayer
        var last: (index: Int, pixels: PixelBuffer)?
    }

    init(data: Data, structure: APNGStructure, options: ImageDecodeOptions) {
        self.data = data
        self.structure = structure
        frameCount = options.firstFrameOnly ? 1 : structure.frames.count
        targetSize = options.targetSize(forSource: structure.header.size, frameCount: frameCount)
        pixelSize = targetSize ?? structure.header.size
        loopCount = structure.loopCount
        hasAlpha = structure.hasAlpha
        state = Mutex(State(player: APNGPlayer(structure: structure)))
    }

    func frameDuration(at index: Int) -> Double {
        structure.frames.indices.contains(index) ? structure.frames[index].control.duration : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index >= 0 && index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        let data = self.data
        let canvas = try state.withLock { state throws -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            state.player.prepare(toRender: index)
            var pixels: PixelBuffer?
            while state.player.nextIndex <= index {
                pixels = try data.withUnsafeBytes { try state.player.renderNext(in: $0) }
            }
            guard let pixels else { throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount)) }
            state.last = (index, pixels)
            return pixels
        }
        return targetSize.map { Resampler.resample(canvas, to: $0) } ?? canvas
    }
}
