import Synchronization
import WebImageCore

/// What the lazy animated decoders (AVIF, JPEG XL, WebP) share: their decoding state behind one lock, the frame
/// index checked, the durations, and the last frame handed out kept so asking for it again (a player's redraw)
/// costs nothing.
final class LazyFrames<Source: AnyObject>: Sendable {
    /// One duration per frame, so also the frame count.
    let durations: [Double]
    private let state: Mutex<State>

    private struct State {
        let source: Source
        var last: (index: Int, pixels: PixelBuffer)?
    }

    init(_ source: sending Source, durations: [Double]) {
        self.durations = durations
        state = Mutex(State(source: source))
    }

    var frameCount: Int { durations.count }

    /// Seconds frame `index` is shown; 0 outside the animation.
    func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    /// Frame `index`: the last one again, or `decode`'s, under the lock; an index outside the animation is
    /// ``BadImageDataReason/frameOutOfRange(index:count:)``.
    func frame(at index: Int, _ decode: (Source) throws -> PixelBuffer) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        return try state.withLock { state in
            if let last = state.last, last.index == index { return last.pixels }
            let pixels = try decode(state.source)
            state.last = (index, pixels)
            return pixels
        }
    }
}
