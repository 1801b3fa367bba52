import Foundation
import Logging
import TestSupport
import Testing
import WebImage

/// What the components log for real loads, recorded by a test log handler passed as their loggers.
@Suite struct PipelineLoggingTests {
    @Test("a download logs its start and its end at debug, with URL, status, bytes and duration")
    func downloadLogsStartAndFinish() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            let png = try encodedImage(.png)
            p.server.route("/a.png", TestResponse(body: png))
            let url = p.server.url("/a.png")
            #expect(try await p.load(url).get().cacheType == ImageCacheType.none)

            let started = p.logs.entries("download started")
            #expect(started.count == 1)
            #expect(started.first?.level == .debug)
            #expect(started.first?.label == "SwiftWebImage.ImageDownloader")
            #expect(started.first?.metadata["url"] == url.absoluteString)
            let finished = try #require(p.logs.entries("download finished").first)
            #expect(finished.level == .debug)
            #expect(finished.metadata["url"] == url.absoluteString)
            #expect(finished.metadata["status"] == "200")
            #expect(finished.metadata["bytes"] == "\(png.count)")
            #expect(finished.metadata["durationMs"].flatMap(Double.init) != nil)
            // The cache's side of a cold load.
            #expect(p.logs.entries("disk cache miss").map(\.metadata["key"]) == [url.absoluteString])
            // Nothing above debug for a load that went well.
            #expect(p.logs.all.allSatisfy { $0.level <= .debug })
        }
    }

    @Test("a 404 logs a warning with code 2001, and the manager blocks the URL at info")
    func notFoundLogsTheCode() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            let url = p.server.url("/missing.png")
            #expect(await p.load(url).failureCode == 2001)

            let failed = p.logs.entries("download failed")
            #expect(failed.count == 1)
            #expect(failed.first?.level == .warning)
            #expect(failed.first?.metadata["code"] == "2001")
            #expect(failed.first?.metadata["url"] == url.absoluteString)
            #expect(failed.first?.metadata["error"] == "HTTP status 404 is not acceptable")
            #expect(p.logs.entries("load failed").map(\.metadata["code"]) == ["2001"])
            let blocked = p.logs.all.filter { $0.message.hasPrefix("URL blocked after a permanent failure") }
            #expect(blocked.map(\.level) == [.info])
            #expect(blocked.first?.metadata["code"] == "2001")
            #expect(p.logs.entries("download finished").isEmpty)

            // Blocked now: refused by the manager (debug), no second download.
            #expect(await p.load(url).failureCode == 1003)
            #expect(p.logs.entries("load failed").map(\.metadata["code"]) == ["2001", "1003"])
            #expect(p.logs.entries("download started").count == 1)
        }
    }

    @Test("a memory hit logs nothing at debug level")
    func memoryHitIsSilentAtDebug() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            p.server.route("/a.png", TestResponse(body: try encodedImage(.png)))
            let url = p.server.url("/a.png")
            _ = try await p.load(url).get()
            #expect(!p.logs.all.isEmpty)
            p.logs.removeAll()

            // The manager's synchronous lookup, and the cache's own query.
            #expect(try await p.load(url).get().cacheType == .memory)
            let hit = await p.cache.queryImage(forKey: url.absoluteString)
            #expect(hit.cacheType == .memory)
            #expect(p.logs.all.isEmpty)
        }
    }

    @Test("at trace level a memory hit logs one line with its key")
    func memoryHitLogsAtTrace() async throws {
        try await withObservedPipeline(level: .trace) { p async throws in
            p.server.route("/a.png", TestResponse(body: try encodedImage(.png)))
            let url = p.server.url("/a.png")
            _ = try await p.load(url).get()
            p.logs.removeAll()

            #expect(try await p.load(url).get().cacheType == .memory)
            let entries = p.logs.all
            #expect(entries.map(\.message) == ["memory cache hit"])
            #expect(entries.first?.level == .trace)
            #expect(entries.first?.label == "SwiftWebImage.ImageCache")
            #expect(entries.first?.metadata["key"] == url.absoluteString)
        }
    }

    @Test("joining a running download logs at debug")
    func coalescedCallerLogsJoin() async throws {
        try await withObservedPipeline(level: .debug) { p async throws in
            let gate = TestGate()
            var gated = TestResponse(body: try encodedImage(.jpeg))
            gated.gate = gate
            p.server.route("/a.jpg", gated)
            let url = p.server.url("/a.jpg")
            async let first = p.load(url)
            #expect(await eventually { p.server.requestCount(for: "/a.jpg") == 1 })
            // Other options: a load of the same options would wait for the first in the manager instead.
            async let second = p.load(url, options: [.waitStoreCache, .lowPriority])
            #expect(await eventually { !p.logs.entries("download joined a running one").isEmpty })
            gate.open()
            _ = await [first, second]
            #expect(p.logs.entries("download joined a running one").map(\.metadata["url"]) == [url.absoluteString])
            #expect(p.logs.entries("download started").count == 1)
            #expect(p.logs.entries("download finished").count == 1)
        }
    }
}
