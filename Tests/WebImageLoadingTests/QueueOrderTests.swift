import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct QueueOrderTests {
    /// Start order of paths, from the downloader's `started` events.
    private func startOrder(_ downloader: ImageDownloader, onStart: @escaping @Sendable (URL) -> Void = { _ in }) -> Recorder<String> {
        let order = Recorder<String>()
        _ = downloader.addObserver { event in
            if case .started(let url) = event {
                order.append(String(url.path.dropFirst()))
                onStart(url)
            }
        }
        return order
    }

    @Test func lifoRunsTheNewestPendingRequestFirst() async throws {
        let configuration = ImageDownloader.Configuration(maxConcurrentDownloads: 1, executionOrder: .lifo)
        try await withLoader(configuration) { server, downloader in
            for index in 1...14 { server.route("/\(index)", TestResponse(body: testImage(), delay: .milliseconds(150))) }
            let later = Recorder<@Sendable () async -> Result<ImageDownloadResult, WebImageError>>()
            let order = startOrder(downloader) { url in
                guard url.path == "/7" else { return }
                for index in 8...14 { later.append(start(downloader, ImageDownloadRequest(url: server.url("/\(index)"))).result) }
            }
            let first = (1...7).map { start(downloader, ImageDownloadRequest(url: server.url("/\($0)"))).result }
            for result in first { _ = await result() }
            for result in later.all { _ = await result() }
            #expect(order.all == ["1", "7", "14", "13", "12", "11", "10", "9", "8", "6", "5", "4", "3", "2"])
        }
    }

    @Test func fifoRunsInArrivalOrderAndPriorityJumpsTheQueue() async throws {
        try await withLoader(ImageDownloader.Configuration(maxConcurrentDownloads: 1)) { server, downloader in
            for index in 1...5 { server.route("/\(index)", TestResponse(body: testImage(), delay: .milliseconds(150))) }
            let order = startOrder(downloader)
            let requests: [(Int, WebImageDownloaderOptions)] = [(1, []), (2, .lowPriority), (3, []), (4, .highPriority), (5, [])]
            let results = requests.map { start(downloader, ImageDownloadRequest(url: server.url("/\($0.0)"), options: $0.1)).result }
            for result in results { _ = await result() }
            #expect(order.all == ["1", "4", "3", "5", "2"])
        }
    }

    @Test func neverRunsMoreThanTheConcurrencyLimit() async throws {
        try await withLoader(ImageDownloader.Configuration(maxConcurrentDownloads: 2)) { server, downloader in
            for index in 0..<6 { server.route("/\(index)", TestResponse(body: testImage(), delay: .milliseconds(100))) }
            let running = Recorder<Int>()
            let active = Recorder<Int>()
            _ = downloader.addObserver { event in
                switch event {
                case .started: active.append(1)
                case .stopped: active.append(-1)
                default: return
                }
                running.append(active.all.reduce(0, +))
            }
            let results = (0..<6).map { start(downloader, ImageDownloadRequest(url: server.url("/\($0)"))).result }
            for result in results { #expect(code(await result()) == nil) }
            #expect(running.all.max() == 2)
        }
    }
}
