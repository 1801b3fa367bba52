import Dispatch
import Synchronization

/// One timer for every download's total deadline.
///
/// A Dispatch timer source per download costs a round trip through Dispatch's manager thread to arm and
/// another to cancel, thousands a second under load; here arming and cancelling are a locked heap push and a
/// dictionary removal, and the single timer is re-armed only when a new deadline is the earliest (with equal
/// timeouts, only when the heap was empty). Cancelled entries leave the heap lazily, and it is rebuilt when
/// they outnumber the live ones, so it stays proportional to the downloads in flight.
final class DeadlineScheduler: Sendable {
    /// The scheduler the downloaders share.
    static let shared = DeadlineScheduler()

    init() {}

    /// Identifies a scheduled action, for ``cancel(_:)``.
    struct Token: Hashable, Sendable {
        fileprivate var id: UInt64
    }

    private struct Entry {
        var deadline: UInt64
        var id: UInt64
    }

    private struct State {
        var heap = MinHeap()
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var armedFor: UInt64?
        /// Made and used under the lock only: a timer source is not Sendable.
        var timer: (any DispatchSourceTimer)?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "SwiftWebImage.DeadlineScheduler", qos: .userInitiated)

    /// Runs `action` on the scheduler's queue once `delay` has passed, unless cancelled first.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Token {
        let deadline = Self.now() &+ Self.nanoseconds(delay)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.actions[id] = action
            state.heap.push(Entry(deadline: deadline, id: id))
            if state.armedFor.map({ deadline < $0 }) ?? true { arm(&state, for: deadline) }
            return Token(id: id)
        }
    }

    /// Forgets the action; it will not run (unless it is already running).
    func cancel(_ token: Token) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: token.id) != nil else { return }
            if state.heap.count > 64 + 2 * state.actions.count {
                state.heap = MinHeap(state.heap.elements.filter { state.actions[$0.id] != nil })
            }
        }
    }

    private func fire() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            let now = Self.now()
            var due: [@Sendable () -> Void] = []
            while let first = state.heap.first, first.deadline <= now {
                state.heap.popFirst()
                if let action = state.actions.removeValue(forKey: first.id) { due.append(action) }
            }
            state.armedFor = nil
            if let next = state.heap.first { arm(&state, for: next.deadline) }
            return due
        }
        for action in due { action() }
    }

    private func arm(_ state: inout State, for deadline: UInt64) {
        state.armedFor = deadline
        if state.timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.fire() }
            timer.resume()
            state.timer = timer
        }
        state.timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(10))
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : min(UInt64.max / 2, whole &+ UInt64(attoseconds / 1_000_000_000))
    }

    /// A binary min-heap of entries by deadline.
    private struct MinHeap {
        private(set) var elements: [Entry] = []

        init() {}

        init(_ entries: [Entry]) {
            for entry in entries { push(entry) }
        }

        var count: Int { elements.count }
        var first: Entry? { elements.first }

        mutating func push(_ entry: Entry) {
            elements.append(entry)
            var child = elements.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard elements[child].deadline < elements[parent].deadline else { break }
                elements.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() {
            guard !elements.isEmpty else { return }
            elements.swapAt(0, elements.count - 1)
            elements.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < elements.count, elements[left].deadline < elements[smallest].deadline { smallest = left }
                if right < elements.count, elements[right].deadline < elements[smallest].deadline { smallest = right }
                guard smallest != parent else { return }
                elements.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}
