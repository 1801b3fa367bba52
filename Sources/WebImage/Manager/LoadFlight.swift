import Foundation
import Synchronization

/// One load's work shared by every load of the same ``LoadFlightKey`` that starts while it runs: one cache query,
/// one download, one decode, one store.
///
/// Each load keeps its own ``ImageCombinedOperation`` (its completion, progress and callback queue): the flight
/// passes every report on to the operations still waiting. A waiter that cancels gets `cancelled` alone; when
/// the last one leaves, the shared work is cancelled. The downloader's own coalescing cannot give this: a load
/// whose cache check ends after another's download but before its store would download and decode again.
final class LoadFlight: LoadReceiving {
    private struct State {
        /// The shared cache query and download, as one operation's would be.
        var work = CombinedOperationState()
        var waiters: [ObjectIdentifier: ImageCombinedOperation] = [:]
    }

    let key: LoadFlightKey
    private let state = Mutex(State())
    /// Called once when the flight stops taking waiters (finished or cancelled).
    private let onClose: @Sendable (LoadFlight) -> Void

    init(key: LoadFlightKey, onClose: @escaping @Sendable (LoadFlight) -> Void) {
        self.key = key
        self.onClose = onClose
    }

    /// Adds a waiter; false when the flight already ended (the caller starts a new one).
    func add(_ operation: ImageCombinedOperation) -> Bool {
        state.withLock { state in
            guard state.work.isRunning else { return false }
            state.waiters[ObjectIdentifier(operation)] = operation
            return true
        }
    }

    /// The token that takes `operation` out of the flight when it is cancelled.
    func membership(of operation: ImageCombinedOperation, url: URL) -> any ImageLoadingToken {
        Membership(url: url, flight: self, waiter: ObjectIdentifier(operation))
    }

    /// A waiter left (it cancelled); the last one leaving cancels the shared work.
    private func leave(_ waiter: ObjectIdentifier) {
        let parts = state.withLock { state -> CombinedOperationState.Cancellation? in
            guard state.waiters.removeValue(forKey: waiter) != nil, state.waiters.isEmpty else { return nil }
            return state.work.cancel()
        }
        guard let parts else { return }
        onClose(self)
        parts.cacheToken?.cancel()
        parts.loaderToken?.cancel()
    }

    private var waiters: [ImageCombinedOperation] {
        state.withLock { $0.work.isRunning ? Array($0.waiters.values) : [] }
    }

    // MARK: - LoadReceiving

    var isRunning: Bool { state.withLock { $0.work.isRunning } }

    func attach(cache token: CacheToken) {
        if !state.withLock({ $0.work.attach(cache: token) }) { token.cancel() }
    }

    func attach(loader token: any ImageLoadingToken) {
        if !state.withLock({ $0.work.attach(loader: token) }) { token.cancel() }
    }

    func deliverIntermediate(_ outcome: ImageLoadOutcome) {
        for waiter in waiters { waiter.deliverIntermediate(outcome) }
    }

    func reportProgress(received: Int, expected: Int) {
        for waiter in waiters { waiter.reportProgress(received: received, expected: expected) }
    }

    func finish(_ outcome: ImageLoadOutcome) {
        for waiter in close() { waiter.finish(outcome) }
    }

    func finishSilently() {
        for waiter in close() { waiter.finishSilently() }
    }

    /// The loader reported a cancellation (its downloads were all cancelled): every waiter is cancelled.
    func cancel() {
        let (parts, waiters) = state.withLock { state in
            defer { state.waiters = [:] }
            return (state.work.cancel(), Array(state.waiters.values))
        }
        guard let parts else { return }
        onClose(self)
        parts.cacheToken?.cancel()
        parts.loaderToken?.cancel()
        for waiter in waiters { waiter.cancel() }
    }

    /// Claims the final delivery: the waiters to give it to, or none when the flight already ended.
    private func close() -> [ImageCombinedOperation] {
        let waiters = state.withLock { state -> [ImageCombinedOperation]? in
            guard state.work.finish() else { return nil }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return [] }
        onClose(self)
        return waiters
    }

    /// One waiter's place in the flight, attached to its operation as the loader part its cancel stops.
    private struct Membership: ImageLoadingToken {
        let url: URL
        let flight: LoadFlight
        let waiter: ObjectIdentifier

        func cancel() { flight.leave(waiter) }
    }
}

/// The flights under way, by key.
final class LoadFlights: Sendable {
    private let flights = Mutex<[LoadFlightKey: LoadFlight]>([:])

    /// Makes `operation` a waiter of the flight for `key`: the flight this load must run when it is the first,
    /// nil when it joined one under way.
    func join(_ key: LoadFlightKey, _ operation: ImageCombinedOperation, url: URL) -> LoadFlight? {
        let (flight, leads) = flights.withLock { flights -> (LoadFlight, Bool) in
            if let running = flights[key], running.add(operation) { return (running, false) }
            let flight = LoadFlight(key: key) { [weak self] in self?.remove($0) }
            _ = flight.add(operation)
            flights[key] = flight
            return (flight, true)
        }
        operation.attach(loader: flight.membership(of: operation, url: url))
        return leads ? flight : nil
    }

    /// Forgets `flight` (a later load with its key starts afresh, and finds what it stored).
    private func remove(_ flight: LoadFlight) {
        flights.withLock { flights in
            if flights[flight.key] === flight { flights[flight.key] = nil }
        }
    }

    /// Flights under way.
    var count: Int { flights.withLock { $0.count } }
}
