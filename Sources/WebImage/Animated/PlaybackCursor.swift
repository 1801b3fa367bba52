/// The order an ``AnimatedImagePlayer`` walks frames in.
public enum AnimationPlaybackMode: Sendable, Hashable {
    /// 0, 1, …, last, 0, 1, …
    case normal
    /// last, …, 0, last, …
    case reverse
    /// 0, …, last, last−1, …, 0, 1, …
    case bounce
    /// last, …, 0, 1, …, last, last−1, …
    case reversedBounce
}

/// Where playback is: frame, time into it, loops done. A value type with no I/O, so the timing rules are
/// plain arithmetic the player runs under its lock.
struct PlaybackCursor {
    let frameCount: Int
    var mode: AnimationPlaybackMode { didSet { rewind() } }
    private(set) var index = 0
    private(set) var completedLoops = 0
    /// Seconds already spent on the current frame.
    private(set) var elapsed: Double = 0
    /// Direction for the bounce modes (towards the last frame when true).
    private var ascending = true

    init(frameCount: Int, mode: AnimationPlaybackMode) {
        self.frameCount = frameCount
        self.mode = mode
        rewind()
    }

    /// Back to the first frame of the mode's order, no loops done.
    mutating func rewind() {
        let last = frameCount - 1
        switch mode {
        case .normal: (index, ascending) = (0, true)
        case .bounce: (index, ascending) = (0, true)
        case .reverse: (index, ascending) = (last, false)
        case .reversedBounce: (index, ascending) = (last, false)
        }
        completedLoops = 0
        elapsed = 0
    }

    mutating func seek(to frame: Int, loopCount: Int) {
        index = min(max(0, frame), frameCount - 1)
        completedLoops = max(0, loopCount)
        elapsed = 0
        if index == 0 { ascending = true } else if index == frameCount - 1 { ascending = false }
    }

    /// What a tick did.
    enum Step: Equatable {
        /// Still within the current frame.
        case stay
        /// Moved to `index`; `completedLoop` when that started the sequence over.
        case advance(index: Int, completedLoop: Bool)
        /// The loop that just ended was the last one allowed; the cursor stays on its frame.
        case finish
    }

    /// Adds `seconds` of play time. Moves at most one frame, however long the tick: a frame is never skipped.
    mutating func tick(_ seconds: Double, duration: (Int) -> Double, totalLoopCount: Int) -> Step {
        elapsed += seconds
        let current = Self.effective(duration(index))
        guard elapsed + 1e-9 >= current else { return .stay }
        let (next, wraps) = successor()
        if wraps, totalLoopCount > 0, completedLoops + 1 >= totalLoopCount {
            completedLoops += 1
            elapsed = current
            return .finish
        }
        if wraps { completedLoops += 1 }
        elapsed = min(elapsed - current, Self.effective(duration(next)))
        moveTo(next)
        return .advance(index: next, completedLoop: wraps)
    }

    /// The next frame in play order without moving, and whether stepping there starts a new loop.
    func successor() -> (index: Int, wraps: Bool) {
        let last = frameCount - 1
        switch mode {
        case .normal: return index == last ? (0, true) : (index + 1, false)
        case .reverse: return index == 0 ? (last, true) : (index - 1, false)
        case .bounce:
            if ascending { return index == last ? (index - 1, false) : (index + 1, false) }
            return index == 0 ? (1, true) : (index - 1, false)
        case .reversedBounce:
            if !ascending { return index == 0 ? (1, false) : (index - 1, false) }
            return index == last ? (last - 1, true) : (index + 1, false)
        }
    }

    /// The next `count` frames in play order, starting with the current one (the player's buffer window).
    func upcoming(_ count: Int) -> [Int] {
        var probe = self
        var frames = [index]
        while frames.count < min(count, frameCount) {
            let next = probe.successor().index
            probe.moveTo(next)
            if frames.contains(next) { break }
            frames.append(next)
        }
        return frames
    }

    /// The bounce modes turn round when leaving an end frame, so the direction is the step just taken.
    private mutating func moveTo(_ next: Int) {
        ascending = next > index
        index = next
    }

    /// Zero or negative durations would spin; they play as 0.1 s, as browsers do.
    private static func effective(_ duration: Double) -> Double {
        duration > 0 && duration.isFinite ? duration : 0.1
    }
}
