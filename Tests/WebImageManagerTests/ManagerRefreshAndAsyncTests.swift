import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// `refreshCached` revalidation, the async API and the event sequence.
@Suite struct ManagerRefreshAndAsyncTests {
    @Test func refreshCachedWith304DeliversTheCachedImageOnly() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/etag.png", width: 6, height: 6, etag: "\"v1\"")
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            #expect(await eventually { h.server.requestCount(for: "/etag.png") == 1 })
            // Written on the cache's queue before the delivery, so a read queued now sees them.
            #expect(await storedValidators(url, in: h.cache)?.etag == "\"v1\"")
            let deliveries = await collect(h.manager, url, options: .refreshCached)
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.cacheType == .memory && deliveries.first?.image?.pixelWidth == 6)
            let requests = h.server.requests(for: "/etag.png")
            #expect(requests.count == 2)
            #expect(requests.last?.header("If-None-Match") == "\"v1\"")
        }
    }

    @Test func refreshCachedWith200DeliversTheCachedThenTheNewImage() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/changing.png", width: 6, height: 6, etag: "\"v1\"")
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            #expect(await storedValidators(url, in: h.cache) != nil)
            try h.serve("/changing.png", width: 9, height: 9, etag: "\"v2\"")
            let deliveries = await collect(h.manager, url, options: [.refreshCached, .waitStoreCache])
            #expect(deliveries.map(\.cacheType) == [.memory, .none])
            #expect(deliveries.map { $0.image?.pixelWidth } == [6, 9])
            #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString)?.pixelWidth == 9)
            #expect(await storedValidators(url, in: h.cache)?.etag == "\"v2\"")
        }
    }

    @Test func validatorsSurviveInANewManagerOnTheSameDirectory() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/dated.png", width: 4, height: 4)
            h.server.route("/dated.png", TestResponse(body: try pngData(width: 4, height: 4, rgba: [9, 9, 9, 255]),
                                                      lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"))
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            #expect(await storedValidators(url, in: h.cache) != nil)
            let (_, second) = h.makeSecondManager()
            let deliveries = await collect(second, url, options: .refreshCached)
            #expect(deliveries.map(\.cacheType) == [.disk])
            #expect(h.server.requests(for: "/dated.png").last?.header("If-Modified-Since") == "Wed, 21 Oct 2015 07:28:00 GMT")
        }
    }

    @Test func asyncImageReturnsImageDataCacheTypeAndURL() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/async.png", width: 7, height: 3)
            let first = try await h.manager.image(for: url)
            #expect(first.image.pixelSize == PixelSize(width: 7, height: 3) && first.cacheType == .none && first.url == url)
            #expect(first.data.map { ImageFormat(sniffing: $0) } == .png)
            let second = try await h.manager.image(for: url.absoluteString)
            #expect(second.cacheType == .memory)
            do {
                _ = try await h.manager.image(for: "")
                Issue.record("expected invalidURL")
            } catch let error as WebImageError {
                #expect(error.code == 1000)
            }
        }
    }

    @Test func eventsCarryProgressPartialImagesAndTheResult() async throws {
        try await withHarness { h async throws in
            let side = 96
            let url = h.server.url("/progressive.png")
            let body = try pngData(width: side, height: side, rgba: [10, 200, 30, 255])
            h.server.route("/progressive.png", TestResponse(body: body, behavior: .drip(chunkSize: max(1, body.count / 4),
                                                                                     interval: .milliseconds(30))))
            var progress: [Int] = [], results: [ImageLoadResult] = []
            for await event in h.manager.imageEvents(for: url, options: .progressiveLoad) {
                switch event {
                case .progress(let received, let expected):
                    #expect(expected == body.count || expected == -1)
                    progress.append(received)
                case .partialImage(let partial): #expect(partial.isIncremental)
                case .result(let result): results.append(result)
                case .failure(let error): Issue.record("unexpected \(error)")
                case .noImage: Issue.record("unexpected noImage")
                }
            }
            #expect(progress.last == body.count)
            #expect(results.count == 1 && results.first?.image.pixelWidth == side)
        }
    }

    @Test func eventsReportFailuresAndNoImage() async throws {
        try await withHarness { h async throws in
            h.server.route("/missing.png", TestResponse(status: 404))
            var events: [String] = []
            for await event in h.manager.imageEvents(for: h.server.url("/missing.png")) {
                if case .failure(let error) = event { events.append("failure \(error.code)") }
            }
            for await event in h.manager.imageEvents(for: h.server.url("/x.png"), options: .fromCacheOnly) {
                if case .noImage = event { events.append("noImage") }
            }
            #expect(events == ["failure 2001", "noImage"])
        }
    }

    @Test func breakingOutOfTheEventsCancelsTheLoad() async throws {
        try await withHarness { h async throws in
            h.server.route("/stuck.png", TestResponse(behavior: .hang))
            let task = Task {
                for await _ in h.manager.imageEvents(for: h.server.url("/stuck.png")) {}
            }
            #expect(await eventually { h.server.requestCount(for: "/stuck.png") == 1 })
            #expect(h.manager.isRunning)
            task.cancel()
            await task.value
            #expect(await eventually { !h.manager.isRunning })
        }
    }
}
