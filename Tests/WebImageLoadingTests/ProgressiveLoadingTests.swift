import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ProgressiveLoadingTests {
    @Test func drippedBytesYieldThrottledPartialImagesThenTheFinalImage() async throws {
        try await withLoader { server, downloader in
            let body = testImage(payload: 60_000)
            server.route("/p", TestResponse(body: body, behavior: .drip(chunkSize: 2_000, interval: .milliseconds(20))))
            let partials = Recorder<(Bool, Int)>()
            let final = try await downloader.image(
                for: ImageDownloadRequest(url: server.url("/p"), options: .progressiveLoad),
                partialImage: { partials.append(($0.isIncremental, $0.pixelWidth)) })
            #expect(!final.image.isIncremental)
            #expect(final.image.pixelHeight == 48)
            let all = partials.all
            #expect(all.count >= 2)
            // 30 chunks over ≈ 600 ms: at most one partial decode per 100 ms, not one per chunk.
            #expect(all.count <= 10)
            #expect(all.allSatisfy { $0.0 })
        }
    }

    @Test func callersWithoutProgressiveLoadGetNoPartials() async throws {
        try await withLoader { server, downloader in
            server.route("/p", TestResponse(body: testImage(payload: 20_000), behavior: .drip(chunkSize: 2_000, interval: .milliseconds(15))))
            let partials = Recorder<Int>()
            _ = try await downloader.image(for: ImageDownloadRequest(url: server.url("/p")), partialImage: { partials.append($0.pixelWidth) })
            #expect(partials.count == 0)
        }
    }
}
