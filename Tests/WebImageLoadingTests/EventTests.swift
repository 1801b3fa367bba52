import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct EventTests {
    private func names(_ downloader: ImageDownloader) -> Recorder<String> {
        let names = Recorder<String>()
        _ = downloader.addObserver { event in
            switch event {
            case .started: names.append("start")
            case .receivedResponse: names.append("response")
            case .stopped: names.append("stop")
            case .finished: names.append("finish")
            }
        }
        return names
    }

    @Test func successPostsStartResponseStopFinishInOrder() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            let events = names(downloader)
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/a")))
            #expect(events.all == ["start", "response", "stop", "finish"])
        }
    }

    @Test func failurePostsNoFinishAndRemovedObserversHearNothing() async throws {
        try await withLoader { server, downloader in
            server.route("/bad", TestResponse(status: 500))
            let events = names(downloader)
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/bad")))
            #expect(events.all == ["start", "stop"])
            let other = Recorder<Int>()
            let token = downloader.addObserver { _ in other.append(1) }
            downloader.removeObserver(token)
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/bad")))
            #expect(other.count == 0)
        }
    }
}
