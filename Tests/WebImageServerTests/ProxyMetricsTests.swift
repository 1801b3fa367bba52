import AsyncHTTPClient
import Foundation
import MetricsTestKit
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// The service's metrics after real requests, read back from a `TestMetrics` factory given to the proxy (never
/// bootstrapped): exactly what happened, and the same counts as ``ProxyStatistics``.
@Suite struct ProxyMetricsTests {
    private typealias M = ImageProxyMetrics

    private static func configuration(_ metrics: TestMetrics,
                                      _ adjust: (inout ImageProxyConfiguration) -> Void = { _ in })
        -> ImageProxyConfiguration {
        ProxyHarness.configuration {
            $0.instrumentation.metricsFactory = metrics
            // Held origin answers wait for the test: the 5 s source deadline must not fire first on a loaded machine.
            $0.timeouts.download = .seconds(60)
            $0.timeouts.downloadIdle = .seconds(60)
            adjust(&$0)
        }
    }

    @Test func aColdRequestThenAWarmOneCountEveryStageOnce() async throws {
        let metrics = TestMetrics()
        try await ProxyHarness.with(Self.configuration(metrics)) { harness in
            let jpeg = try Fixtures.jpeg(400, 300)
            harness.serve("/a.jpg", jpeg)
            let path = harness.signedPath("rs:fit:100:100", source: "/a.jpg")

            #expect(try await harness.get(path).status == 200)
            #expect(try metrics.expectCounter(M.encodes).totalValue == 1)
            #expect(try metrics.expectCounter(M.resultCacheMisses).totalValue == 1)
            #expect(try metrics.expectCounter(M.sourceDownloads).totalValue == 1)
            for stage in M.Stage.allCases {
                #expect(try metrics.expectTimer(M.stageDuration, [(M.Dimension.stage, stage.rawValue)]).values.count == 1,
                        "\(stage)")
            }
            // The pipeline's own downloader metrics, made with the proxy's factory.
            #expect(try metrics.expectTimer(WebImageMetrics.downloadDuration).values.count == 1)
            #expect(try metrics.expectCounter(WebImageMetrics.downloadsStarted).totalValue == 1)
            #expect(try metrics.expectCounter(WebImageMetrics.downloadBytes).totalValue == Int64(jpeg.count))

            #expect(try await harness.get(path).status == 200)
            #expect(try metrics.expectCounter(M.resultCacheHits, [(M.Dimension.tier, "memory")]).totalValue == 1)
            #expect(try metrics.expectCounter(M.resultCacheHits, [(M.Dimension.tier, "disk")]).totalValue == 0)
            #expect(try metrics.expectCounter(M.encodes).totalValue == 1)
            #expect(try metrics.expectCounter(M.resultCacheMisses).totalValue == 1)
            #expect(try metrics.expectTimer(M.stageDuration, [(M.Dimension.stage, "encode")]).values.count == 1)
            #expect(try metrics.expectCounter(M.coalesced).totalValue == 0)

            // Each image request went in and out of flight; health checks are not counted.
            #expect(try await harness.get("/health").status == 200)
            let inFlight = try metrics.expectMeter(M.requestsInFlight)
            #expect(inFlight.values == [1, 0, 1, 0])
            let statistics = harness.proxy.statistics.snapshot
            #expect(statistics.encodes == 1 && statistics.memoryHits == 1 && statistics.misses == 1)
        }
    }

    @Test func aBurstOfIdenticalColdRequestsCoalescesAllButOne() async throws {
        let metrics = TestMetrics()
        let burst = 20
        try await ProxyHarness.with(Self.configuration(metrics)) { harness in
            let gate = TestGate()
            var held = TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(200, 150))
            held.gate = gate
            harness.origin.route("/burst.jpg", held)
            let path = harness.signedPath("w:50", source: "/burst.jpg")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<burst {
                    group.addTask { try await harness.get(path).status }
                }
                // The origin holds its answer until every request has joined the one flight.
                #expect(await eventually { (try? metrics.expectCounter(M.coalesced).totalValue) == Int64(burst - 1) })
                gate.open()
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: burst))
            #expect(try metrics.expectCounter(M.coalesced).totalValue == Int64(burst - 1))
            #expect(try metrics.expectCounter(M.resultCacheMisses).totalValue == Int64(burst))
            #expect(try metrics.expectCounter(M.encodes).totalValue == 1)
            #expect(try metrics.expectCounter(WebImageMetrics.downloadsStarted).totalValue == 1)
            #expect(harness.origin.requestCount(for: "/burst.jpg") == 1)
            #expect(harness.proxy.statistics.snapshot.coalesced == burst - 1)
        }
    }

    @Test func aFullQueueShowsItsDepthAndCountsTheRejection() async throws {
        let metrics = TestMetrics()
        let configuration = Self.configuration(metrics) {
            $0.concurrency.workers = 1
            $0.concurrency.queueSize = 1
        }
        try await ProxyHarness.with(configuration) { harness in
            let gate = TestGate()
            for name in ["/q1.jpg", "/q2.jpg", "/q3.jpg"] {
                var held = TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(40, 30))
                held.gate = gate
                harness.origin.route(name, held)
            }
            let first = Task { try await harness.get(harness.signedPath("w:20", source: "/q1.jpg")) }
            #expect(await eventually { harness.proxy.limiter.load == (1, 0) })
            let second = Task { try await harness.get(harness.signedPath("w:20", source: "/q2.jpg")) }
            #expect(await eventually { harness.proxy.limiter.load == (1, 1) })
            #expect(try metrics.expectMeter(M.queueDepth).lastValue == 1)
            #expect(try await harness.get(harness.signedPath("w:20", source: "/q3.jpg")).status == 429)
            #expect(try metrics.expectCounter(M.rejected).totalValue == 1)
            gate.open()
            #expect(try await first.value.status == 200)
            #expect(try await second.value.status == 200)
            #expect(try metrics.expectMeter(M.queueDepth).lastValue == 0)
            #expect(harness.proxy.statistics.snapshot.rejected == 1)
        }
    }
}
