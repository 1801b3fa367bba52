import Dispatch
import Synchronization

/// The time source that drives an ``AnimatedImagePlayer`` (a display link's role on Apple platforms).
public protocol AnimationClock: Sendable {
    /// Starts calling `tick` with the seconds elapsed since the previous tick; the subscription stops it.
    func subscribe(_ tick: @escaping @Sendable (Double) -> Void) -> AnimationClockSubscription
}

/// Stops the ticks of one ``AnimationClock/subscribe(_:)`` call when cancelled or released.
public final class AnimationClockSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    public func cancel() {
        onCancel.withLock { handler in
            let run = handler
            handler = nil
            return run
        }?()
    }

    deinit { cancel() }
}

/// Real time: ticks `framesPerSecond` times a second on a background queue.
public struct SystemAnimationClock: AnimationClock {
    /// Ticks per second. Default 60.
    public var framesPerSecond: Double

    public init(framesPerSecond: Double = 60) {
        self.framesPerSecond = max(1, framesPerSecond)
    }

    public func subscribe(_ tick: @escaping @Sendable (Double) -> Void) -> AnimationClockSubscription {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "SwiftWebImage.AnimationClock"))
        let last = Mutex(DispatchTime.now())
        timer.setEventHandler {
            let now = DispatchTime.now()
            let elapsed = last.withLock { previous in
                defer { previous = now }
                return Double(now.uptimeNanoseconds - previous.uptimeNanoseconds) / 1e9
            }
            tick(elapsed)
        }
        timer.schedule(deadline: .now(), repeating: 1 / framesPerSecond, leeway: .milliseconds(1))
        timer.resume()
        let source = TimerSource(timer)
        return AnimationClockSubscription { source.timer.cancel() }
    }
}

/// Dispatch sources are thread-safe to cancel but not marked Sendable on Linux.
private final class TimerSource: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}

/// A clock that moves only when told to: for tests, and for renderers that step an animation themselves
/// (writing frames of a video, say).
public final class ManualAnimationClock: AnimationClock {
    private let subscribers = Mutex<[Int: @Sendable (Double) -> Void]>([:])
    private let nextID = Atomic<Int>(0)

    public init() {}

    public func subscribe(_ tick: @escaping @Sendable (Double) -> Void) -> AnimationClockSubscription {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        subscribers.withLock { $0[id] = tick }
        return AnimationClockSubscription { [weak self] in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// Delivers one tick of `seconds` to every subscriber, synchronously.
    public func advance(by seconds: Double) {
        for tick in subscribers.withLock({ Array($0.values) }) { tick(seconds) }
    }
}
