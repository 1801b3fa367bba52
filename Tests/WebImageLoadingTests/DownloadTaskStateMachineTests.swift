import Foundation
import Testing
@testable import WebImage

@Suite struct DownloadTaskStateMachineTests {
    private func caller(_ id: Int) -> DownloadCaller {
        DownloadCaller(id: id, decodeOptions: ImageDecodeOptions(), wantsPartials: false, progress: nil,
                       partialImage: nil, completion: { _ in })
    }

    private let body = DownloadOutcome.success(DownloadedBody(data: Data([1]), head: nil))

    @Test func lastDetachWhileRunningCancelsTheTransfer() {
        var machine = DownloadTaskStateMachine()
        _ = machine.attach(caller(1))
        _ = machine.attach(caller(2))
        let started = machine.start()
        #expect(started)
        let first = machine.detach(1)
        #expect(first.caller?.id == 1 && !first.cancelTransfer && !first.becameDone)
        let last = machine.detach(2)
        #expect(last.caller?.id == 2 && last.cancelTransfer && last.becameDone)
        let again = machine.detach(2)
        #expect(again.caller == nil)
        let finished = machine.finish(body)
        #expect(finished == nil)
    }

    @Test func queuedTaskWhoseCallersLeftDoesNotStart() {
        var machine = DownloadTaskStateMachine()
        _ = machine.attach(caller(1))
        let result = machine.detach(1)
        #expect(!result.cancelTransfer && result.becameDone)
        let started = machine.start()
        #expect(!started)
        guard case .closed = machine.attach(caller(2)) else {
            Issue.record("a done task must refuse callers")
            return
        }
    }

    @Test func callerAttachingWhileFinishingGetsTheOutcomeAndEachCallerIsClaimedOnce() {
        var machine = DownloadTaskStateMachine()
        _ = machine.attach(caller(1))
        let started = machine.start()
        #expect(started)
        let delivered = machine.finish(body)
        #expect(delivered?.map(\.id) == [1])
        guard case .deliverNow = machine.attach(caller(2)) else {
            Issue.record("a finishing task must hand over its outcome")
            return
        }
        let first = machine.claim(1)
        #expect(first.caller?.id == 1 && !first.becameDone)
        let twice = machine.claim(1)
        #expect(twice.caller == nil)
        let late = machine.detach(1)
        #expect(late.caller == nil)
        let second = machine.claim(2)
        #expect(second.caller?.id == 2 && second.becameDone)
        #expect(machine.isDone)
    }

    @Test func cancelAllTakesEveryCaller() {
        var machine = DownloadTaskStateMachine()
        _ = machine.attach(caller(1))
        _ = machine.attach(caller(2))
        let started = machine.start()
        #expect(started)
        let (callers, wasRunning) = machine.cancelAll()
        #expect(callers.map(\.id) == [1, 2] && wasRunning)
        let claimed = machine.claim(1)
        #expect(claimed.caller == nil)
    }
}

@Suite struct DownloadQueueTests {
    @Test func fifoAndLifoWithinPriorities() {
        var fifo = DownloadQueue<Int>(order: .fifo)
        var lifo = DownloadQueue<Int>(order: .lifo)
        for (value, priority) in [(1, .normal), (2, .low), (3, .high), (4, .normal), (5, .high)] as [(Int, DownloadQueue<Int>.Priority)] {
            fifo.enqueue(value, priority: priority)
            lifo.enqueue(value, priority: priority)
        }
        #expect(Array(sequence(state: fifo) { $0.dequeue() }) == [3, 5, 1, 4, 2])
        #expect(Array(sequence(state: lifo) { $0.dequeue() }) == [5, 3, 4, 1, 2])
        #expect(fifo.count == 5)
        let removed = fifo.removeAll()
        #expect(removed.count == 5 && fifo.isEmpty)
    }

    @Test func prioritiesComeFromOptions() {
        #expect(DownloadQueue<Int>.Priority([.highPriority]) == .high)
        #expect(DownloadQueue<Int>.Priority([.lowPriority]) == .low)
        #expect(DownloadQueue<Int>.Priority([]) == .normal)
    }
}

@Suite struct ProgressThrottleTests {
    @Test func milestonesAlwaysPassChunksAreThrottledAndTheEndIsNotRepeated() {
        let start = ContinuousClock.now
        var throttle = ProgressThrottle(interval: .milliseconds(100))
        let head = throttle.milestone(received: 0, expected: 100, now: start)
        let tooSoon = throttle.chunk(received: 10, expected: 100, now: start + .milliseconds(10))
        let later = throttle.chunk(received: 20, expected: 100, now: start + .milliseconds(150))
        let last = throttle.chunk(received: 100, expected: 100, now: start + .milliseconds(160))
        let end = throttle.end(total: 100, now: start + .milliseconds(170))
        #expect(head == (0, 100))
        #expect(tooSoon == nil)
        #expect(later.map { [$0.0, $0.1] } == [20, 100])
        #expect(last.map { [$0.0, $0.1] } == [100, 100])
        #expect(end == nil)
    }

    @Test func configurationClampsAndDefaults() {
        let configuration = ImageDownloader.Configuration(downloadTimeout: .zero, minimumProgressInterval: .seconds(9))
        #expect(configuration.effectiveTimeout == .seconds(15))
        #expect(configuration.effectiveProgressInterval == .seconds(1))
        let defaults = ImageDownloader.Configuration.default
        #expect(defaults.maxConcurrentDownloads == 6)
        #expect(defaults.acceptableStatusCodes == Set(200..<300))
        #expect(defaults.maxResponseBytes == 100_000_000)
        #expect(defaults.executionOrder == .fifo)
        #expect(!defaults.allowInvalidSSLCertificates)
    }
}
