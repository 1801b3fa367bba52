import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ExactlyOnceTests {
    @Test func everyCompletionRunsOnceWhenCancellationsRaceTheDownload() async throws {
        try await withLoader { server, downloader in
            server.route("/race", TestResponse(body: testImage(payload: 30_000),
                                               behavior: .drip(chunkSize: 5_000, interval: .milliseconds(10))))
            let calls = Recorder<Int>()
            let (done, finished) = AsyncStream<Void>.makeStream()
            let tokens = (0..<40).map { index in
                downloader.downloadImage(with: ImageDownloadRequest(url: server.url("/race"))) { _ in
                    calls.append(index)
                    finished.yield()
                }
            }
            for (index, token) in tokens.enumerated() where index.isMultiple(of: 2) {
                token.cancel()
                try await Task.sleep(for: .milliseconds(2))
            }
            var remaining = tokens.count
            for await _ in done {
                remaining -= 1
                if remaining == 0 { break }
            }
            try await Task.sleep(for: .milliseconds(200))
            for token in tokens { token.cancel() }
            try await Task.sleep(for: .milliseconds(100))
            #expect(calls.count == 40)
            #expect(Set(calls.all).count == 40)
            #expect(server.requestCount(for: "/race") == 1)
        }
    }
}
