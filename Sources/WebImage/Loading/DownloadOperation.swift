import WebImageCore
import Foundation
import Synchronization

/// One network download for one URL, shared by every caller attached to it (SDWebImage's download operation).
///
/// Lifecycle decisions go through ``DownloadTaskStateMachine``; this class carries out the actions outside
/// its lock: starting and cancelling transport attempts (a second attempt answers a Basic challenge),
/// accumulating the body, throttled progress, partial decodes, and delivery (``DownloadOperation+Delivery``).
final class DownloadOperation: Sendable {
    struct State {
        var machine = DownloadTaskStateMachine()
        /// The current transport attempt; callbacks from older attempts are ignored.
        var attempt = 0
        var tasks: [Int: any TransportTask] = [:]
        var transportRequest: TransportRequest
        /// The current attempt reached its outcome (completed, failed or cancelled).
        var transferEnded = false
        var head: TransportResponseHead?
        var body = Data()
        var expected = -1
        var progress: ProgressThrottle
        var authAttempted = false
        /// Counts against the downloader's concurrency limit.
        var holdsSlot = false
        var partial = PartialDecodeState()
        /// The total-timeout timer while the transfer runs (see ``armDeadline()``).
        var deadline: DeadlineScheduler.Token?
        /// When the transfer started (`DispatchTime` uptime nanoseconds), for the first-byte and total timers.
        var startedAt: UInt64 = 0
        var firstByteRecorded = false
    }

    let url: URL
    let request: ImageDownloadRequest
    let priority: DownloadQueue<DownloadOperation>.Priority
    let downloader: ImageDownloader
    let state: Mutex<State>

    init(request: ImageDownloadRequest, transportRequest: TransportRequest, downloader: ImageDownloader) {
        url = request.url
        self.request = request
        priority = .init(request.options)
        self.downloader = downloader
        state = Mutex(State(transportRequest: transportRequest,
                            progress: ProgressThrottle(interval: downloader.configuration.effectiveProgressInterval)))
    }

    func attach(_ caller: DownloadCaller) -> DownloadTaskStateMachine.AttachResult {
        state.withLock { $0.machine.attach(caller) }
    }

    /// Starts the transfer if a caller is still waiting; false when every caller left while queued.
    func start() -> Bool {
        let started: (request: TransportRequest, handlers: [ImageDownloader.ProgressHandler])? = state.withLock { state in
            guard state.machine.start() else { return nil }
            state.holdsSlot = true
            state.startedAt = DispatchTime.now().uptimeNanoseconds
            _ = state.progress.milestone(received: 0, expected: -1, now: .now)
            return (state.transportRequest, state.machine.callers.compactMap(\.progress))
        }
        guard let started else { return false }
        reportStarted()
        downloader.events.post(.started(url))
        for handler in started.handlers { handler(0, -1) }
        armDeadline()
        startTransfer(started.request, attempt: 0)
        return true
    }

    func startTransfer(_ request: TransportRequest, attempt: Int) {
        let task = downloader.transport.start(request, handler: AttemptHandler(operation: self, attempt: attempt))
        let stale = state.withLock { state in
            guard attempt == state.attempt, !state.transferEnded, state.machine.isRunning else { return true }
            state.tasks[attempt] = task
            return false
        }
        if stale { task.cancel() }
    }

    /// A caller cancelled its token: it alone fails with `cancelled`; the transfer stops when it was the last.
    func detach(_ callerID: Int) {
        let (result, tasks, releasesSlot) = state.withLock { state in
            let result = state.machine.detach(callerID)
            guard result.cancelTransfer else { return (result, [any TransportTask](), false) }
            return (result, endTransfer(&state), takeSlot(&state))
        }
        if let caller = result.caller {
            downloader.deliveryQueue.async { caller.completion(.failure(.cancelled)) }
        }
        finishCancellation(tasks: tasks, releasesSlot: releasesSlot, cancelled: result.cancelTransfer,
                           becameDone: result.becameDone)
    }

    /// Fails every caller with `cancelled` and stops the transfer.
    func cancelAll() {
        let (callers, wasRunning, tasks, releasesSlot) = state.withLock { state in
            let (callers, wasRunning) = state.machine.cancelAll()
            return (callers, wasRunning, endTransfer(&state), takeSlot(&state))
        }
        if !callers.isEmpty {
            downloader.deliveryQueue.async { for caller in callers { caller.completion(.failure(.cancelled)) } }
        }
        finishCancellation(tasks: tasks, releasesSlot: releasesSlot, cancelled: wasRunning, becameDone: true)
    }

    private func finishCancellation(tasks: [any TransportTask], releasesSlot: Bool, cancelled: Bool, becameDone: Bool) {
        if cancelled { cancelDeadline() }
        for task in tasks { task.cancel() }
        if cancelled {
            reportCancelled()
            downloader.events.post(.stopped(url))
        }
        if becameDone { downloader.unregister(self) }
        if releasesSlot { downloader.releaseSlot() }
    }

    /// Marks the current attempt ended without a usable body and takes its tasks for cancelling.
    func endTransfer(_ state: inout State) -> [any TransportTask] {
        state.transferEnded = true
        state.body = Data()
        defer { state.tasks.removeAll() }
        return Array(state.tasks.values)
    }

    func takeSlot(_ state: inout State) -> Bool {
        defer { state.holdsSlot = false }
        return state.holdsSlot
    }
}

/// Routes one attempt's transport events to its operation, tagged with the attempt number.
struct AttemptHandler: TransportResponseHandler {
    let operation: DownloadOperation
    let attempt: Int

    func didReceive(_ head: TransportResponseHead) { operation.didReceive(head, attempt: attempt) }
    func didReceive(bytes: UnsafeRawBufferPointer) { operation.didReceive(bytes: bytes, attempt: attempt) }
    func didComplete(error: WebImageError?) { operation.didComplete(error: error, attempt: attempt) }
}
