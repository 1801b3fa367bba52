import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ExactlyOnceTests {
    /// Half the callers cancel while the bytes drip in; when the body is complete, another thread cancels
    /// every token while the delivery queue hands out results. Each completion must still run exactly once,
    /// and the remaining callers keep the single network request alive.
    @Test(.timeLimit(.minutes(1)))
    func everyCompletionRunsOnceWhenCancellationsRaceTheDownload() async throws {
        try await withLoader { server, downloader in
            server.route("/race", TestResponse(body: testImage(payload: 30_000),
                                               behavior: .drip(chunkSize: 5_000, interval: .milliseconds(10))))
            let calls = Recorder<Int>()
            let tokens = Recorder<ImageDownloadToken>()
            _ = downloader.addObserver { event in
                guard case .finished = event else { return }
                DispatchQueue.global().async { for token in tokens.all { token.cancel() } }
            }
            let (done, finished) = AsyncStream<Void>.makeStream()
            for index in 0..<40 {
                tokens.append(downloader.downloadImage(with: ImageDownloadRequest(url: server.url("/race"))) { _ in
                    calls.append(index)
                    finished.yield()
                })
            }
            for (index, token) in tokens.all.enumerated() where index.isMultiple(of: 2) {
                token.cancel()
                try await Task.sleep(for: .milliseconds(2))
            }
            var remaining = 40
            for await _ in done {
                remaining -= 1
                if remaining == 0 { break }
            }
            // Late cancels must not complete anyone a second time.
            for token in tokens.all { token.cancel() }
            try await Task.sleep(for: .milliseconds(200))
            #expect(calls.count == 40)
            #expect(Set(calls.all).count == 40)
            #expect(server.requestCount(for: "/race") == 1)
        }
    }
}
