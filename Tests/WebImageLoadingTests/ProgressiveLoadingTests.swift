import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ProgressiveLoadingTests {
    @Test func drippedBytesYieldThrottledPartialImagesThenTheFinalImage() async throws {
        try await withLoader { server, downloader in
            // About 1.5 s of dripping: room for several 100 ms throttle windows even when a loaded machine
            // delays chunks and decodes.
            let body = testImage(payload: 60_000)
            server.route("/p", TestResponse(body: body, behavior: .drip(chunkSize: 2_000, interval: .milliseconds(50))))
            let partials = Recorder<(Bool, Int)>()
            var result: ImageDownloadResult?
            let elapsed = try await seconds {
                result = try await downloader.image(
                    for: ImageDownloadRequest(url: server.url("/p"), options: .progressiveLoad),
                    partialImage: { partials.append(($0.isIncremental, $0.pixelWidth)) })
            }
            let final = try #require(result)
            #expect(!final.image.isIncremental)
            #expect(final.image.pixelHeight == 48)
            let all = partials.all
            #expect(all.count >= 2)
            // 31 chunks: at most one partial decode per 100 ms of download, not one per chunk.
            #expect(all.count <= Int(elapsed / 0.1) + 1)
            #expect(all.count < 31)
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

@Suite struct ProgressiveJPEGLoadingTests {
    /// The codec suite's progressive JPEG fixture (512 px wide, 10 scans, 25,106 bytes).
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WebImageCodecsTests/Fixtures/jpeg/progressive-512.jpg")

    @Test func drippedProgressiveJPEGShowsSharperPartialsThenTheFinalImage() async throws {
        // No partial-decode throttle and well-spaced chunks, so even a loaded machine sees several scans.
        let configuration = ImageDownloader.Configuration(minimumPartialDecodeInterval: .zero)
        try await withLoader(configuration, coders: .shared) { server, downloader in
            try server.serveFile("/p.jpg", from: Self.fixture, contentType: "image/jpeg",
                                 behavior: .drip(chunkSize: 2_600, interval: .milliseconds(250)))
            let partials = Recorder<Image>()
            let final = try await downloader.image(
                for: ImageDownloadRequest(url: server.url("/p.jpg"), options: .progressiveLoad),
                partialImage: { partials.append($0) })
            #expect(final.image.format == .jpeg)
            #expect(!final.image.isIncremental)
            #expect(final.image.pixelWidth == 512)
            let all = partials.all
            #expect(all.count >= 2)
            #expect(all.allSatisfy { $0.isIncremental && $0.pixelSize == final.image.pixelSize })
            #expect(server.requestCount(for: "/p.jpg") == 1)
        }
    }
}
