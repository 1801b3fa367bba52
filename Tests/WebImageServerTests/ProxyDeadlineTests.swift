import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Past the processing timeout the job's work is cancelled, not only its waiters: the worker frees within a
/// band of rows and the request behind it is served.
@Suite struct ProxyDeadlineTests {
    /// A 49 MP PNG (every pixel zero, so a few hundred kilobytes) shrunk to 16 MP, blurred, sharpened and
    /// pixelated: seconds of work on any machine, far past the one-second timeout.
    private static let slowSource = LargeImages.png(width: 7000, height: 7000, alpha: true)
    private static let slowOptions = "bl:80/sh:40/pix:3/f:webp"

    @Test func aJobPastItsProcessingTimeoutStopsAndFreesItsWorker() async throws {
        let configuration = ProxyHarness.configuration {
            $0.concurrency.workers = 1
            $0.concurrency.queueSize = 1
            $0.timeouts.processing = .seconds(1)
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/huge.png", Self.slowSource, contentType: "image/png")
            harness.serve("/small.jpg", try Fixtures.jpeg(40, 30))
            let slow = try await harness.get(harness.signedPath(Self.slowOptions, source: "/huge.png"))
            #expect(slow.status == 503)
            // The worker frees when the job ends; it ended cancelled, having made no result (had it run on to
            // the end, it would have counted an encode).
            #expect(await eventually { harness.proxy.limiter.load == (0, 0) })
            #expect(harness.proxy.statistics.snapshot.encodes == 0)
            let cheap = try await harness.get(harness.signedPath("w:20", source: "/small.jpg"))
            #expect(cheap.status == 200)
            #expect(try cheap.image().pixelWidth == 20)
            #expect(harness.proxy.statistics.snapshot.encodes == 1)
        }
    }

    /// A burst of slow sources on one worker: each times out, and afterwards a cheap request is served at once
    /// rather than refused (429) or queued behind work nobody waits for.
    @Test func aBurstOfSlowSourcesLeavesTheServiceFree() async throws {
        let configuration = ProxyHarness.configuration {
            $0.concurrency.workers = 1
            $0.concurrency.queueSize = 3
            $0.timeouts.processing = .seconds(1)
        }
        try await ProxyHarness.with(configuration) { harness in
            for index in 0..<3 { harness.serve("/huge\(index).png", Self.slowSource, contentType: "image/png") }
            harness.serve("/small.jpg", try Fixtures.jpeg(40, 30))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        try await harness.get(harness.signedPath(Self.slowOptions, source: "/huge\(index).png")).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == [503, 503, 503])
            #expect(await eventually { harness.proxy.limiter.load == (0, 0) })
            #expect(harness.proxy.statistics.snapshot.encodes == 0)
            #expect(try await harness.get(harness.signedPath("w:20", source: "/small.jpg")).status == 200)
        }
    }
}
