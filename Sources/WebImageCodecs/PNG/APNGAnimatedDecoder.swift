import Foundation
import Synchronization
import WebImageCore

/// Lazy frame access to an animated PNG: frames are decoded and composited when asked for.
///
/// Asking in order is cheap (each frame is drawn onto the previous canvas); any other frame is replayed from
/// the nearest earlier frame that paints the whole canvas. The last frame handed out is kept at its
/// delivered size. Thread-safe: the replay state sits behind a mutex.
final class APNGAnimatedDecoder: AnimatedImageDecoder {
    let format = ImageFormat.png
    let pixelSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    let orientation: ImageOrientation
    private let data: Data
    private let structure: APNGStructure
    /// The size frames are resampled to (thumbnail / scale-down options), nil for full size.
    private let targetSize: PixelSize?
    /// The filter frames are brought to ``targetSize`` with.
    private let kernel: Resampler.Kernel
    private let state: Mutex<State>

    private struct State: Sendable {
        var player: APNGPlayer
        var last: (index: Int, pixels: PixelBuffer)?
    }

    /// Throws when the animation is over the options' animation limits.
    init(data: Data, structure: APNGStructure, options: ImageDecodeOptions) throws {
        frameCount = options.firstFrameOnly ? 1 : structure.frames.count
        try options.checkAnimation(frameCount: frameCount, canvas: structure.header.size)
        self.data = data
        self.structure = structure
        targetSize = options.targetSize(forSource: structure.header.size, frameCount: frameCount)
        kernel = options.thumbnailKernel
        pixelSize = targetSize ?? structure.header.size
        loopCount = structure.loopCount
        hasAlpha = structure.hasAlpha
        orientation = data.withUnsafeBytes { PNGOrientationReader.orientation(in: $0) }
        state = Mutex(State(player: APNGPlayer(structure: structure)))
    }

    func frameDuration(at index: Int) -> Double {
        structure.frames.indices.contains(index) ? structure.frames[index].control.duration : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index >= 0 && index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        let data = self.data, targetSize = self.targetSize
        return try state.withLock { state throws -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            // Dropped first: holding the previous canvas would make the next frame copy it.
            state.last = nil
            state.player.prepare(toRender: index)
            var canvas: PixelBuffer?
            while state.player.nextIndex <= index {
                canvas = nil
                canvas = try data.withUnsafeBytes { try state.player.renderNext(in: $0) }
            }
            guard let canvas else { throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount)) }
            let pixels = targetSize.map { Resampler.resample(canvas, to: $0, kernel: kernel) } ?? canvas
            state.last = (index, pixels)
            return pixels
        }
    }
}
