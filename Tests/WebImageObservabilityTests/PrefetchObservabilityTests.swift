import Foundation
import MetricsTestKit
import Synchronization
import TestSupport
import Testing
import WebImage

/// The prefetcher's progress counters and batch logs for real batches.
@Suite struct PrefetchObservabilityTests {
    private typealias M = WebImageMetrics

    private func run(_ prefetcher: ImagePrefetcher, _ urls: [URL]) async -> (finished: Int, skipped: Int) {
        await withCheckedContinuation { continuation in
            prefetcher.prefetch(urls, completed: { continuation.resume(returning: ($0, $1)) })
        }
    }

    @Test("a batch counts every URL as finished and those without an image as skipped")
    func batchCountsFinishedAndSkipped() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            p.server.route("/a.png", TestResponse(body: try encodedImage(.png)))
            p.server.route("/b.jpg", TestResponse(body: try encodedImage(.jpeg)))
            let prefetcher = ImagePrefetcher(manager: p.manager,
                                             logger: p.logs.logger("SwiftWebImage.ImagePrefetcher", level: .debug),
                                             metricsFactory: p.metrics)
            let urls = ["/a.png", "/b.jpg", "/missing.png"].map(p.server.url)
            let result = await run(prefetcher, urls)
            #expect(result == (3, 1))
            #expect(try p.counter(M.prefetchFinished) == 3)
            #expect(try p.counter(M.prefetchSkipped) == 1)
            #expect(p.logs.entries("prefetch batch started").map(\.metadata["urls"]) == ["3"])
            let finished = p.logs.entries("prefetch batch finished")
            #expect(finished.map(\.level) == [.debug])
            #expect(finished.first?.metadata["finished"] == "3")
            #expect(finished.first?.metadata["skipped"] == "1")
            #expect(finished.first?.metadata["cancelled"] == "false")
        }
    }

    @Test("cancelling counts the running and the unstarted URLs as skipped, once each")
    func cancelledBatchCountsEveryURL() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            for i in 0..<3 { p.server.route("/s\(i).png", TestResponse(behavior: .hang)) }
            let prefetcher = ImagePrefetcher(manager: p.manager, metricsFactory: p.metrics)
            prefetcher.maxConcurrentPrefetchCount = 1
            let done = Recorded<(Int, Int)>()
            let token = prefetcher.prefetch((0..<3).map { p.server.url("/s\($0).png") },
                                            completed: { done.set(($0, $1)) })
            #expect(await eventually { p.server.totalRequestCount == 1 })
            token.cancel()
            #expect(await eventually { done.value != nil })
            #expect(done.value.map { $0 == (3, 3) } == true)
            #expect(try p.counter(M.prefetchFinished) == 3)
            #expect(try p.counter(M.prefetchSkipped) == 3)
            // A cancelled download is neither a failure nor timed as finished.
            #expect(p.metrics.counters(label: M.downloadsFailed).isEmpty)
            #expect(try p.timerCount(M.downloadDuration) == 0)
            let cancelled = p.logs.entries("download cancelled").map(\.metadata["url"])
            #expect(cancelled == [p.server.url("/s0.png").absoluteString])
        }
    }
}

/// A value set once from any thread.
final class Recorded<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    func set(_ value: Value) { storage.withLock { $0 = value } }
    var value: Value? { storage.withLock { $0 } }
}
