import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Singleflight, the bounded queue, clients that leave, and graceful shutdown.
@Suite struct ProxyConcurrencyTests {
    @Test func hundredIdenticalColdRequestsFetchAndEncodeOnce() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(400, 300), delay: .milliseconds(500))
            let path = harness.signedPath("rs:fill:100:100", source: "/a.jpg")
            let client = harness.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)\(path)"),
                                                                timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        return Int(response.status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 100))
            #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
            let statistics = harness.proxy.statistics.snapshot
            #expect(statistics.encodes == 1)
            #expect(statistics.sourceDownloads == 1)
            #expect(statistics.coalesced + statistics.memoryHits == 99)
        }
    }

    @Test func fullQueueAnswers429AtOnce() async throws {
        let configuration = ProxyHarness.configuration {
            $0.concurrency.workers = 1
            $0.concurrency.queueSize = 1
            $0.timeouts.downloadIdle = .seconds(60)
            $0.timeouts.download = .seconds(60)
        }
        try await ProxyHarness.with(configuration) { harness in
            // The origin holds its answers until the gate opens: the worker and the queue stay taken however slow
            // the machine is.
            let gate = TestGate()
            for path in ["/slow1.jpg", "/slow2.jpg", "/slow3.jpg"] {
                var response = TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(40, 30))
                response.gate = gate
                harness.origin.route(path, response)
            }
            let first = Task { try await harness.get(harness.signedPath("w:20", source: "/slow1.jpg")) }
            #expect(await eventually { harness.proxy.limiter.load == (1, 0) })
            let second = Task { try await harness.get(harness.signedPath("w:20", source: "/slow2.jpg")) }
            #expect(await eventually { harness.proxy.limiter.load == (1, 1) })
            #expect(try await harness.get("/ready").status == 503)
            let refused = try await harness.get(harness.signedPath("w:20", source: "/slow3.jpg"))
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "1")
            // At once: the answer came while the origin still held the other two.
            #expect(harness.origin.requestCount(for: "/slow3.jpg") == 0)
            #expect(harness.origin.requestCount(for: "/slow2.jpg") == 0)
            gate.open()
            #expect(try await first.value.status == 200)
            #expect(try await second.value.status == 200)
            #expect(try await harness.get("/ready").status == 200)
            #expect(harness.proxy.statistics.snapshot.rejected == 1)
        }
    }

    @Test func aClientThatLeavesStopsTheWorkNobodyElseWaitsFor() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/hang.jpg", try Fixtures.jpeg(40, 30), behavior: .hang)
            let path = harness.signedPath("w:20", source: "/hang.jpg")
            let leaving = Task { try await harness.get(path, timeout: .seconds(60)) }
            // The client leaves once the work is under way (a fixed client timeout could end first on a busy machine).
            #expect(await eventually { harness.origin.requestCount(for: "/hang.jpg") == 1 })
            leaving.cancel()
            await #expect(throws: (any Error).self) { _ = try await leaving.value }
            #expect(await eventually {
                harness.proxy.resultsInProgress == 0 && harness.proxy.limiter.load == (0, 0)
                    && harness.proxy.downloader.currentDownloadCount == 0
            })
            #expect(harness.proxy.statistics.snapshot.encodes == 0)
        }
    }

    @Test func aWaiterLeavingDoesNotDisturbTheOthers() async throws {
        let configuration = ProxyHarness.configuration {
            $0.timeouts.downloadIdle = .seconds(10)
            $0.timeouts.download = .seconds(10)
        }
        try await ProxyHarness.with(configuration) { harness in
            // Long enough that the impatient request leaves before the origin answers, even on a loaded machine.
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30), delay: .seconds(4))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let patient = Task { try await harness.get(path) }
            #expect(await eventually { harness.proxy.resultsInProgress == 1 })
            await #expect(throws: (any Error).self) {
                _ = try await harness.get(path, timeout: .milliseconds(200))
            }
            #expect(try await patient.value.status == 200)
            #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
        }
    }

    @Test func gracefulShutdownFinishesTheRequestInFlight() async throws {
        let harness = try await ProxyHarness.start(ProxyHarness.configuration())
        harness.serve("/a.jpg", try Fixtures.jpeg(40, 30), delay: .seconds(1))
        let inFlight = Task { try await harness.get(harness.signedPath("w:20", source: "/a.jpg")) }
        #expect(await eventually { harness.proxy.resultsInProgress == 1 })
        await harness.server.triggerGracefulShutdown()
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(try answer.image().pixelWidth == 20)
        await harness.waitUntilStopped()
        #expect(!harness.proxy.isReady)
        await #expect(throws: (any Error).self) { _ = try await harness.get("/health", timeout: .seconds(2)) }
        await harness.stop()
    }
}
