import Dispatch
import Foundation
import Synchronization

/// What the operator page shows of the requests themselves: image and info requests in flight, answered by
/// status, and the slowest of the last few minutes with their stage times. Recorded, once
/// ``startRecording()`` was called, for every request at the end of its access-log observation; a request faster than the slowest kept only counts its status.
final class RecentRequests: Sendable {
    /// One answered request as the slowest list keeps it.
    struct Entry: Sendable, Hashable, Encodable {
        /// The path with its signature replaced by `***` (at most ``maxPathLength`` characters).
        var path: String
        var status: Int
        /// From routing to the answer being ready.
        var totalMilliseconds: Double
        /// ``CacheOutcome``'s value; nil when no result was looked up.
        var cache: String?
        /// Milliseconds per stage the request went through.
        var stages: [String: Double]
        /// When it ended, in seconds since 1970.
        var endedAt: Double
        /// When it ended on the uptime clock: what the window is measured on.
        var endedUptime: UInt64

        private enum CodingKeys: String, CodingKey {
            case path, status, totalMilliseconds, cache, stages, endedAt
        }
    }

    /// How many of the slowest requests are kept. Default 20.
    let capacity: Int
    /// How long a request stays on the list. Default 5 minutes.
    let window: Duration
    static let maxPathLength = 300

    private struct State {
        var slowest: [Entry] = []
        var statuses: [Int: Int] = [:]
    }

    private let state = Mutex(State())
    private let recording = Atomic<Bool>(false)
    private let inFlightCount = Atomic<Int>(0)
    /// The shortest duration on a full list (nanoseconds) and when its oldest entry leaves the window: a request
    /// no slower, ending before then, cannot enter, and skips the lock.
    private let threshold = Atomic<UInt64>(0)
    private let earliestExpiry = Atomic<UInt64>(0)

    init(capacity: Int = 20, window: Duration = .seconds(300)) {
        self.capacity = max(1, capacity)
        self.window = window
    }

    /// Whether requests are recorded: only while an operator page is served, so that a proxy without one
    /// traces nothing and reads no clock for it.
    var isRecording: Bool { recording.load(ordering: .relaxed) }

    /// Records requests from now on.
    func startRecording() {
        recording.store(true, ordering: .relaxed)
    }

    /// Image and info requests being answered now.
    var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// Requests answered so far, by status.
    var statuses: [Int: Int] { state.withLock { $0.statuses } }

    /// The slowest requests of the window, slowest first.
    var slowest: [Entry] {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            state.slowest.filter { now <= $0.endedUptime + windowNanoseconds }
        }.sorted { $0.totalMilliseconds > $1.totalMilliseconds }
    }

    func started() {
        inFlightCount.add(1, ordering: .relaxed)
    }

    /// A request ended with `status` after `nanoseconds`; `trace` holds its cache outcome and stage times.
    func ended(path: String, status: Int, nanoseconds: UInt64, trace: RequestTrace) {
        inFlightCount.subtract(1, ordering: .relaxed)
        let now = DispatchTime.now().uptimeNanoseconds
        if nanoseconds <= threshold.load(ordering: .relaxed), now < earliestExpiry.load(ordering: .relaxed) {
            state.withLock { $0.statuses[status, default: 0] += 1 }
            return
        }
        let entry = Entry(path: String(path.prefix(Self.maxPathLength)), status: status,
                          totalMilliseconds: Double(nanoseconds) / 1e6, cache: trace.cacheOutcome?.rawValue,
                          stages: Dictionary(uniqueKeysWithValues: trace.stageTimes.map { ($0.key.rawValue, Double($0.value) / 1e6) }),
                          endedAt: Date().timeIntervalSince1970, endedUptime: now)
        state.withLock { state in
            state.statuses[status, default: 0] += 1
            state.slowest.removeAll { now > $0.endedUptime + windowNanoseconds }
            if state.slowest.count < capacity {
                state.slowest.append(entry)
            } else if let fastest = state.slowest.indices.min(by: { state.slowest[$0].totalMilliseconds < state.slowest[$1].totalMilliseconds }),
                      state.slowest[fastest].totalMilliseconds < entry.totalMilliseconds {
                state.slowest[fastest] = entry
            }
            let full = state.slowest.count >= capacity
            let shortest = state.slowest.map(\.totalMilliseconds).min() ?? 0
            threshold.store(full ? UInt64(shortest * 1e6) : 0, ordering: .relaxed)
            let oldest = state.slowest.map(\.endedUptime).min() ?? now
            earliestExpiry.store(full ? oldest + windowNanoseconds : 0, ordering: .relaxed)
        }
    }

    private var windowNanoseconds: UInt64 {
        let parts = window.components
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
    }
}
