import Dispatch
import Foundation
import Synchronization

/// Plays an animation against a clock, without a view (SDWebImage's `SDAnimatedImagePlayer`).
///
/// Each time the clock has run a frame's duration the player moves one frame (never more, however late the
/// tick) and hands the frame to ``onFrame``. Decoded frames are kept in a buffer bounded by
/// ``maxBufferSize``; the next frames in play order are decoded ahead on a background queue.
///
/// ```swift
/// let player = try AnimatedImagePlayer(provider: AnimatedImage(data: gif))
/// player.onFrame = { index, pixels in render(pixels) }
/// player.startPlaying()
/// ```
public final class AnimatedImagePlayer: Sendable {
    public let provider: any AnimatedFrameProvider
    private let clock: any AnimationClock
    private let state: Mutex<State>
    private let prefetchQueue = DispatchQueue(label: "SwiftWebImage.AnimatedImagePlayer.prefetch", qos: .utility)

    private struct State {
        var cursor: PlaybackCursor
        var playbackRate: Double = 1
        var totalLoopCount: Int
        var maxBufferSize: Int = 0
        var buffer: [Int: PixelBuffer] = [:]
        var subscription: AnimationClockSubscription?
        var isPrefetching = false
        var onFrame: (@Sendable (Int, PixelBuffer) -> Void)?
        var onLoop: (@Sendable (Int) -> Void)?
        var onFinish: (@Sendable () -> Void)?
        var frameTransformer: (@Sendable (PixelBuffer, Int) -> PixelBuffer)?
    }

    /// A player for `provider`; nil when it has fewer than two frames (nothing to play).
    ///
    /// - Parameter clock: what drives playback. Default: real time at 60 ticks a second.
    public init?(provider: any AnimatedFrameProvider, clock: any AnimationClock = SystemAnimationClock()) {
        guard provider.frameCount > 1 else { return nil }
        self.provider = provider
        self.clock = clock
        state = Mutex(State(cursor: PlaybackCursor(frameCount: provider.frameCount, mode: .normal),
                            totalLoopCount: provider.loopCount))
    }

    deinit {
        state.withLock { $0.subscription }?.cancel()
    }

    // MARK: Settings

    /// The order frames play in. Default `.normal`. Changing it rewinds.
    public var playbackMode: AnimationPlaybackMode {
        get { state.withLock { $0.cursor.mode } }
        set { state.withLock { $0.cursor.mode = newValue } }
    }

    /// Speed factor: 2 plays twice as fast, 0 holds the current frame. Default 1; negative values count as 0.
    public var playbackRate: Double {
        get { state.withLock { $0.playbackRate } }
        set { state.withLock { $0.playbackRate = newValue.isFinite ? max(0, newValue) : 0 } }
    }

    /// Loops to play before stopping; 0 plays forever. Default: the animation's own loop count.
    public var totalLoopCount: Int {
        get { state.withLock { $0.totalLoopCount } }
        set { state.withLock { $0.totalLoopCount = max(0, newValue) } }
    }

    /// Bytes of decoded frames the buffer may hold (at least one frame is always kept).
    /// Default 0: automatic, 1/32 of physical memory.
    public var maxBufferSize: Int {
        get { state.withLock { $0.maxBufferSize } }
        set {
            state.withLock { $0.maxBufferSize = max(0, newValue) }
            trimBuffer()
        }
    }

    /// Called with each frame shown (index, pixels), on the clock's thread. Default nil.
    public var onFrame: (@Sendable (Int, PixelBuffer) -> Void)? {
        get { state.withLock { $0.onFrame } }
        set { state.withLock { $0.onFrame = newValue } }
    }

    /// Called with the number of loops completed each time a loop ends. Default nil.
    public var onLoop: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.onLoop } }
        set { state.withLock { $0.onLoop = newValue } }
    }

    /// Called once playback stops by itself after ``totalLoopCount`` loops. Default nil.
    public var onFinish: (@Sendable () -> Void)? {
        get { state.withLock { $0.onFinish } }
        set { state.withLock { $0.onFinish = newValue } }
    }

    /// Applied to every frame as it is decoded into the buffer (a per-frame transformer). Default nil.
    public var frameTransformer: (@Sendable (PixelBuffer, Int) -> PixelBuffer)? {
        get { state.withLock { $0.frameTransformer } }
        set {
            state.withLock { $0.frameTransformer = newValue }
            clearFrameBuffer()
        }
    }

    // MARK: State

    public var currentFrameIndex: Int { state.withLock { $0.cursor.index } }
    public var currentLoopCount: Int { state.withLock { $0.cursor.completedLoops } }
    public var isPlaying: Bool { state.withLock { $0.subscription != nil } }
    /// Frames decoded and held right now.
    public var bufferedFrameCount: Int { state.withLock { $0.buffer.count } }

    // MARK: Control

    /// Shows the current frame and starts following the clock. Does nothing while already playing.
    public func startPlaying() {
        let started = state.withLock { state -> Bool in
            guard state.subscription == nil else { return false }
            state.subscription = clock.subscribe { [weak self] seconds in self?.tick(seconds) }
            return true
        }
        if started { show(currentFrameIndex) }
    }

    /// Stops following the clock and keeps the position.
    public func pausePlaying() {
        state.withLock { state in
            let subscription = state.subscription
            state.subscription = nil
            return subscription
        }?.cancel()
    }

    /// Stops and rewinds to the first frame of the play order, with no loops done.
    public func stopPlaying() {
        pausePlaying()
        state.withLock { $0.cursor.rewind() }
    }

    /// Jumps to `frame` with `loopCount` loops counted as done, and shows it.
    public func seek(toFrame frame: Int, loopCount: Int = 0) {
        let index = state.withLock { state in
            state.cursor.seek(to: frame, loopCount: loopCount)
            return state.cursor.index
        }
        show(index)
    }

    /// Drops every decoded frame; they are decoded again when needed.
    public func clearFrameBuffer() {
        state.withLock { $0.buffer.removeAll() }
    }

    // MARK: Internals

    private func tick(_ seconds: Double) {
        let (step, onLoop, onFinish, loops) = state.withLock { state in
            let step = state.cursor.tick(seconds * state.playbackRate, duration: provider.frameDuration(at:),
                                         totalLoopCount: state.totalLoopCount)
            return (step, state.onLoop, state.onFinish, state.cursor.completedLoops)
        }
        switch step {
        case .stay:
            return
        case .advance(let index, let completedLoop):
            if completedLoop { onLoop?(loops) }
            show(index)
        case .finish:
            pausePlaying()
            onLoop?(loops)
            onFinish?()
        }
    }

    /// Hands frame `index` to ``onFrame`` (decoding it now if the buffer lacks it) and refills the buffer.
    private func show(_ index: Int) {
        guard let pixels = bufferedOrDecoded(index) else { return }
        state.withLock { $0.onFrame }?(index, pixels)
        prefetch()
    }

    /// The frame from the buffer, or decoded and stored there; the buffer is trimmed in the same step, so it
    /// never holds more than its budget.
    private func bufferedOrDecoded(_ index: Int) -> PixelBuffer? {
        if let pixels = state.withLock({ state in
            defer { trim(&state) }
            return state.buffer[index]
        }) { return pixels }
        guard let pixels = decode(index) else { return nil }
        state.withLock { state in
            state.buffer[index] = pixels
            trim(&state)
        }
        return pixels
    }

    private func decode(_ index: Int) -> PixelBuffer? {
        guard let pixels = try? provider.frame(at: index) else { return nil }
        return state.withLock { $0.frameTransformer }.map { $0(pixels, index) } ?? pixels
    }

    /// The frames the buffer should hold: the current one and those after it in play order, within budget.
    private func window(_ state: State) -> [Int] {
        let budget = state.maxBufferSize > 0 ? state.maxBufferSize : Int(ProcessInfo.processInfo.physicalMemory / 32)
        return state.cursor.upcoming(max(1, budget / provider.bytesPerFrame))
    }

    private func trimBuffer() {
        state.withLock { trim(&$0) }
    }

    private func trim(_ state: inout State) {
        let keep = Set(window(state))
        state.buffer = state.buffer.filter { keep.contains($0.key) }
    }

    /// The window's frames not yet decoded; marks a prefetch job as running when there are some.
    private func claimMissingFrames(_ state: inout State) -> [Int] {
        let missing = window(state).filter { state.buffer[$0] == nil }
        state.isPrefetching = !missing.isEmpty
        return missing
    }

    /// Decodes the missing frames of the window on the background queue, one job at a time; the job keeps
    /// going until the window (which moves while it works) is full.
    private func prefetch() {
        let first = state.withLock { state in state.isPrefetching ? [] : claimMissingFrames(&state) }
        guard !first.isEmpty else { return }
        prefetchQueue.async { [weak self] in
            var missing = first
            while let self, !missing.isEmpty {
                for index in missing {
                    guard let pixels = decode(index) else { continue }
                    state.withLock { state in
                        if window(state).contains(index) { state.buffer[index] = pixels }
                    }
                }
                missing = state.withLock { claimMissingFrames(&$0) }
            }
        }
    }
}
