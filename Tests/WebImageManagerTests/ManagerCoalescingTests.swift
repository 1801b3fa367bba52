import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// Loads of one URL and options started together share one cache query, one download and one decode, each
/// with its own operation: cancelling one leaves the others, every completion runs once.
@Suite struct ManagerCoalescingTests {
    /// Rounds of loads released together from a barrier, each round a URL never loaded before: the second
    /// load's cache check can fall anywhere in the first one's query, download, decode and store.
    @Test func loadsStartedTogetherDownloadAndDecodeOnce() async throws {
        let coder = CountingCoder()
        try await withHarness(coders: CodersManager(coders: [coder])) { h async throws in
            let rounds = 1000, loadsPerRound = 4
            let png = try pngData(width: 8, height: 6, rgba: [9, 8, 7, 255])
            for round in 0..<rounds { h.server.route("/r\(round).png", TestResponse(body: png)) }
            let barrier = ThreadBarrier(count: loadsPerRound)
            let manager = h.manager, server = h.server
            // Each thread's rounds: wait for the others, start its load, wait for its one completion.
            let widths = try await withThrowingTaskGroup(of: [Int?].self) { group in
                for _ in 0..<loadsPerRound {
                    group.addTask {
                        try await onDedicatedThread {
                            (0..<rounds).map { round in
                                barrier.wait()
                                let done = DispatchSemaphore(value: 0)
                                let width = Mutex<Int?>(nil)
                                manager.loadImage(with: server.url("/r\(round).png")) { image, _, _, _, _, _ in
                                    width.withLock { $0 = image?.pixelWidth }
                                    done.signal()
                                }
                                done.wait()
                                return width.withLock { $0 }
                            }
                        }
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0 += $1 }
            }
            #expect(widths.count == rounds * loadsPerRound && widths.allSatisfy { $0 == 8 })
            let downloadedTwice = (0..<rounds).filter { server.requestCount(for: "/r\($0).png") != 1 }
            #expect(downloadedTwice == [])
            #expect(coder.decodeCount == rounds)
            #expect(manager.loadFlights.count == 0)
        }
    }

    /// A waiter that cancels gets `cancelled` once; the others still get the one download's image.
    @Test func cancellingOneWaiterLeavesTheOthers() async throws {
        let coder = CountingCoder()
        try await withHarness(coders: CodersManager(coders: [coder])) { h async throws in
            let gate = TestGate()
            h.server.route("/held.png", gated(TestResponse(body: try pngData(width: 5, height: 4, rgba: [1, 2, 3, 255])), gate))
            let url = h.server.url("/held.png")
            let deliveries = Recorder<(load: Int, width: Int?, code: Int?)>()
            let operations = (0..<3).map { load in
                h.manager.loadImage(with: url) { image, _, error, _, _, _ in
                    deliveries.append((load, image?.pixelWidth, error?.code))
                }
            }
            #expect(await eventually { h.server.requestCount(for: "/held.png") == 1 })
            operations[1].cancel()
            #expect(operations[1].isCancelled && operations[0].isRunning && operations[2].isRunning)
            gate.open()
            #expect(await eventually { deliveries.count == 3 })
            try await Task.sleep(for: .milliseconds(50))
            let byLoad = deliveries.all.sorted { $0.load < $1.load }
            #expect(byLoad.map(\.load) == [0, 1, 2])
            #expect(byLoad.map(\.width) == [5, nil, 5])
            #expect(byLoad.map(\.code) == [nil, 2002, nil])
            #expect(h.server.requestCount(for: "/held.png") == 1)
            #expect(coder.decodeCount == 1)
            #expect(!h.manager.isRunning)
        }
    }

    /// When every waiter cancels, the shared download is cancelled too.
    @Test func cancellingEveryWaiterCancelsTheDownload() async throws {
        try await withHarness { h async throws in
            h.server.route("/hang.png", TestResponse(behavior: .hang))
            let url = h.server.url("/hang.png")
            let codes = Recorder<Int?>()
            let operations = (0..<3).map { _ in
                h.manager.loadImage(with: url) { _, _, error, _, _, _ in codes.append(error?.code) }
            }
            #expect(await eventually { h.server.requestCount(for: "/hang.png") == 1 })
            #expect(h.downloader.currentDownloadCount == 1)
            operations[0].cancel()
            operations[1].cancel()
            #expect(h.downloader.currentDownloadCount == 1)
            operations[2].cancel()
            #expect(await eventually { h.downloader.currentDownloadCount == 0 })
            #expect(await eventually { codes.count == 3 })
            #expect(codes.all == [2002, 2002, 2002])
            #expect(h.server.requestCount(for: "/hang.png") == 1)
            #expect(!h.manager.isRunning && h.manager.loadFlights.count == 0)
        }
    }

    /// A failing download reaches every waiter exactly once, and blocks the URL once.
    @Test func aFailureReachesEveryWaiterOnce() async throws {
        try await withHarness { h async throws in
            let gate = TestGate()
            h.server.route("/gone.png", gated(TestResponse(status: 404, body: Data("no".utf8)), gate))
            let url = h.server.url("/gone.png")
            let codes = Recorder<Int?>()
            for _ in 0..<4 {
                h.manager.loadImage(with: url) { _, _, error, _, _, _ in codes.append(error?.code) }
            }
            #expect(await eventually { h.server.requestCount(for: "/gone.png") == 1 })
            gate.open()
            #expect(await eventually { codes.count == 4 })
            try await Task.sleep(for: .milliseconds(50))
            #expect(codes.all == [2001, 2001, 2001, 2001])
            #expect(h.server.requestCount(for: "/gone.png") == 1)
            #expect(h.manager.isFailedURL(url))
        }
    }

    /// Loads of one URL whose keys or options differ are not merged: each gets what it asked for (the downloader
    /// still fetches the bytes once for all of them, once all four have joined its download).
    @Test func differentKeysAndOptionsAreNotMerged() async throws {
        let logs = LogStore()
        try await withHarness(downloaderLogs: logs) { h async throws in
            let gate = TestGate()
            h.server.route("/mixed.png", gated(TestResponse(body: try pngData(width: 40, height: 20, rgba: [4, 5, 6, 255])), gate))
            let url = h.server.url("/mixed.png")
            var thumbnail = WebImageContext()
            thumbnail.decodeOptions.thumbnailPixelSize = PixelSize(width: 10, height: 10)
            var flipped = WebImageContext()
            flipped.transformer = ImageTransformers.Flip(horizontal: true, vertical: false)
            let sizes = Recorder<(load: Int, size: PixelSize?)>()
            let loads: [(WebImageOptions, WebImageContext)] = [([], WebImageContext()), ([], thumbnail), ([], flipped),
                                                               (.decodeFirstFrameOnly, WebImageContext())]
            for (index, (options, context)) in loads.enumerated() {
                h.manager.loadImage(with: url, options: options, context: context) { image, _, _, _, _, _ in
                    sizes.append((index, image?.pixelSize))
                }
            }
            #expect(await eventually { h.server.requestCount(for: "/mixed.png") == 1 })
            // On a loaded machine a load can reach the downloader late: the gate opens once all have joined.
            #expect(await eventually { logs.entries("download joined a running one").count == 3 })
            gate.open()
            #expect(await eventually { sizes.count == 4 })
            let bySize = sizes.all.sorted { $0.load < $1.load }.map(\.size)
            let full = PixelSize(width: 40, height: 20)
            #expect(bySize == [full, PixelSize(width: 10, height: 5), full, full])
            #expect(h.server.requestCount(for: "/mixed.png") == 1)
        }
    }

    /// `response` held back until `gate` opens.
    private func gated(_ response: TestResponse, _ gate: TestGate) -> TestResponse {
        var response = response
        response.gate = gate
        return response
    }
}
