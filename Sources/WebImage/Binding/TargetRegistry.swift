import Foundation
import Synchronization

/// The associated state of every target (SDWebImage keeps it in associated objects; Swift on Linux has none).
///
/// A global map keyed by `ObjectIdentifier`, holding each target weakly: entries of targets that went away
/// are swept once the map has doubled since the last sweep, and an entry whose target is gone is never
/// handed to a new object that reuses the address.
enum TargetRegistry {
    private struct Entries {
        var byID: [ObjectIdentifier: TargetState] = [:]
        var sweepAt = 64
    }

    private static let entries = Mutex(Entries())

    /// The state of `target`, created on first use.
    static func state(for target: some ImageTarget) -> TargetState {
        let id = ObjectIdentifier(target)
        return entries.withLock { entries in
            if let existing = entries.byID[id], existing.target === target { return existing }
            if entries.byID.count >= entries.sweepAt {
                entries.byID = entries.byID.filter { $0.value.target != nil }
                entries.sweepAt = max(64, entries.byID.count * 2)
            }
            let created = TargetState(target: target)
            entries.byID[id] = created
            return created
        }
    }

    /// The state of `target` if it has one (no entry is created).
    static func existingState(for target: some ImageTarget) -> TargetState? {
        entries.withLock { entries in
            entries.byID[ObjectIdentifier(target)].flatMap { $0.target === target ? $0 : nil }
        }
    }

    /// How many entries the map holds (for tests of the sweep).
    static var count: Int { entries.withLock { $0.byID.count } }
}

/// One target's loads, per operation key, and its current URL and progress.
///
/// `lock` is recursive and held while a completion checks it is still current and sets the image, so a new
/// load started meanwhile (even from inside ``ImageTarget/setImage(_:cacheType:url:)``) orders cleanly
/// before or after it.
final class TargetState: Sendable {
    struct Load {
        var generation: UInt64
        var operation: ImageCombinedOperation?
    }

    private let weakTarget: Mutex<WeakTarget>
    /// Recursive so a target may start a load from inside its own `setImage`.
    let lock = NSRecursiveLock()
    private let state = Mutex((generation: UInt64(0), loads: [String: Load](), currentURL: URL?.none))
    let progress = ImageLoadProgress()

    private struct WeakTarget {
        weak var value: (any ImageTarget)?
    }

    init(target: any ImageTarget) {
        weakTarget = Mutex(WeakTarget(value: target))
    }

    var target: (any ImageTarget)? { weakTarget.withLock { $0.value } }

    var currentURL: URL? { state.withLock { $0.currentURL } }

    /// Starts a new load under `key`: returns its generation and the previous operation (to cancel).
    func begin(key: String, url: URL?) -> (generation: UInt64, previous: ImageCombinedOperation?) {
        state.withLock { state in
            state.generation += 1
            state.currentURL = url
            let previous = state.loads[key]?.operation
            state.loads[key] = Load(generation: state.generation, operation: nil)
            return (state.generation, previous)
        }
    }

    /// Records the operation of the load `generation`, if it is still the current one for `key`.
    func attach(_ operation: ImageCombinedOperation, key: String, generation: UInt64) {
        state.withLock { state in
            if state.loads[key]?.generation == generation, operation.isRunning {
                state.loads[key]?.operation = operation
            }
        }
    }

    /// Whether the load `generation` is still the current one for `key`.
    func isCurrent(key: String, generation: UInt64) -> Bool {
        state.withLock { $0.loads[key]?.generation == generation }
    }

    /// Forgets the load `generation` of `key` once it finished (if nothing replaced it).
    func end(key: String, generation: UInt64) {
        state.withLock { state in
            if state.loads[key]?.generation == generation { state.loads[key] = nil }
        }
    }

    /// Cancels and forgets the load under `key`; later completions of it are stale.
    func cancel(key: String) {
        let operation = state.withLock { state in
            defer { state.loads[key] = nil }
            return state.loads[key]?.operation
        }
        operation?.cancel()
    }
}
