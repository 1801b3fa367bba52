import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// ``ImagePrefetcher`` counts, concurrency, cancellation and its delegate.
@Suite struct PrefetcherTests {
    final class Delegate: ImagePrefetcherDelegate {
        let prefetched = Recorder<(url: URL, gotImage: Bool)>()
        let finished = Recorder<(Int, Int)>()
        func prefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, image: Image?, finished: Int, total: Int) {
            prefetched.append((url, image != nil))
        }
        func prefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotal total: Int, skipped: Int) {
            finished.append((total, skipped))
        }
    }

    /// Runs a batch and waits for its completion.
    func run(_ prefetcher: ImagePrefetcher, _ urls: [URL],
             progress: Recorder<(Int, Int)> = Recorder()) async -> (finished: Int, skipped: Int) {
        await withCheckedContinuation { continuation in
            prefetcher.prefetch(urls, progress: { progress.append(($0, $1)) }) { finished, skipped in
                continuation.resume(returning: (finished, skipped))
            }
        }
    }

    @Test func defaults() {
        let prefetcher = ImagePrefetcher(manager: ImageManager(cache: CachesManager(), loader: LoadersManager()))
        #expect(prefetcher.maxConcurrentPrefetchCount == 3 && prefetcher.options == .lowPriority)
        #expect(ImagePrefetcher.shared.manager !== ImageManager.shared)
    }

    @Test func anEmptyListCompletesWithZeroZero() async {
        let prefetcher = ImagePrefetcher(manager: ImageManager(cache: CachesManager(), loader: LoadersManager()))
        let result = await run(prefetcher, [])
        #expect(result == (0, 0))
    }

    /// The README's form, `prefetch(urls) { finished, skipped in … }`: the trailing closure is the completion,
    /// called once per batch, not once per URL as progress would be.
    @Test func theTrailingClosureIsTheCompletion() async throws {
        try await withHarness { h async throws in
            let urls = try (0..<3).map { try h.serve("/t\($0).png") }
            let prefetcher = ImagePrefetcher(manager: h.manager)
            let calls = Recorder<(Int, Int)>()
            prefetcher.prefetch(urls) { finished, skipped in calls.append((finished, skipped)) }
            #expect(await eventually { calls.count >= 1 })
            try await Task.sleep(for: .milliseconds(100))
            #expect(calls.count == 1 && calls.all.first.map { $0 == (3, 0) } == true)
            let delegate = Delegate()
            prefetcher.delegate = delegate
            prefetcher.prefetch(urls)
            #expect(await eventually { delegate.finished.count == 1 })
            #expect(delegate.finished.all.first.map { $0 == (3, 0) } == true)
        }
    }

    @Test func countsFinishedAndSkippedAndFillsTheCache() async throws {
        try await withHarness { h async throws in
            let good = try (0..<5).map { try h.serve("/p\($0).png") }
            h.server.route("/missing.png", TestResponse(status: 404))
            let prefetcher = ImagePrefetcher(manager: h.manager)
            let delegate = Delegate()
            prefetcher.delegate = delegate
            let progress = Recorder<(Int, Int)>()
            let result = await run(prefetcher, good + [h.server.url("/missing.png")], progress: progress)
            #expect(result == (6, 1))
            #expect(progress.all.map(\.0) == Array(1...6) && progress.all.allSatisfy { $0.1 == 6 })
            #expect(delegate.prefetched.count == 6 && delegate.prefetched.all.filter(\.gotImage).count == 5)
            #expect(await eventually { delegate.finished.count == 1 })
            #expect(delegate.finished.all.first.map { $0 == (6, 1) } == true)
            for url in good { #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString) != nil) }
            // Cached now: a second batch needs no request.
            #expect(await run(prefetcher, good) == (5, 0))
            #expect(h.server.totalRequestCount == 6)
        }
    }

    @Test func atMostMaxConcurrentLoadsRunAtOnce() async throws {
        try await withHarness { h async throws in
            let inFlight = Mutex((now: 0, peak: 0))
            let png = try pngData(width: 4, height: 4, rgba: [1, 1, 1, 255])
            for i in 0..<8 {
                h.server.route("/c\(i).png") { _ in
                    inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    return TestResponse(body: png, delay: .milliseconds(40))
                }
            }
            let observer = h.downloader.addObserver { event in
                if case .stopped = event { inFlight.withLock { $0.now -= 1 } }
            }
            let prefetcher = ImagePrefetcher(manager: h.manager)
            prefetcher.maxConcurrentPrefetchCount = 2
            let result = await run(prefetcher, (0..<8).map { h.server.url("/c\($0).png") })
            h.downloader.removeObserver(observer)
            #expect(result == (8, 0))
            #expect(inFlight.withLock { $0.peak } <= 2)
        }
    }

    @Test func cancellingMidBatchCompletesWithTheRightSkippedCount() async throws {
        try await withHarness { h async throws in
            let fast = try (0..<2).map { try h.serve("/f\($0).png") }
            for i in 0..<6 { h.server.route("/s\(i).png", TestResponse(behavior: .hang)) }
            let slow = (0..<6).map { h.server.url("/s\($0).png") }
            let prefetcher = ImagePrefetcher(manager: h.manager)
            prefetcher.maxConcurrentPrefetchCount = 3
            _ = await run(prefetcher, fast)
            let done = Recorder<(Int, Int)>()
            let token = prefetcher.prefetch(fast + slow, completed: { done.append(($0, $1)) })
            // Both cached ones finish at once; three hanging loads are running, three not started.
            #expect(await eventually { h.server.totalRequestCount == 2 + 3 })
            token.cancel()
            #expect(await eventually { done.count == 1 })
            #expect(done.all.first.map { $0 == (8, 6) } == true)
            #expect(token.isCancelled)
        }
    }

    @Test func cancelPrefetchingEndsEveryBatch() async throws {
        try await withHarness { h async throws in
            h.server.route("/stall.png", TestResponse(behavior: .hang))
            let prefetcher = ImagePrefetcher(manager: h.manager)
            let done = Recorder<(Int, Int)>()
            for _ in 0..<2 { prefetcher.prefetch([h.server.url("/stall.png")], completed: { done.append(($0, $1)) }) }
            #expect(await eventually { h.server.totalRequestCount >= 1 })
            prefetcher.cancelPrefetching()
            #expect(await eventually { done.count == 2 })
            #expect(done.all.allSatisfy { $0 == (1, 1) })
        }
    }
}
