import Foundation
import TestSupport
import Testing
import WebImage

/// `downloadTimeout` limits each wait for bytes (SDWebImage's meaning); `totalDownloadTimeout` and a
/// request's `totalTimeout` limit the whole download, however steadily a server drips.
@Suite struct TotalTimeoutTests {
    /// 1,000 bytes at one byte per 200 ms: 200 s of body, never idle for long.
    private static let drip = TestResponse(body: testImage(payload: 1_000),
                                           behavior: .drip(chunkSize: 1, interval: .milliseconds(200)))

    @Test func aDrippingServerIsCutAtTheConfiguredTotalTimeout() async throws {
        let configuration = ImageDownloader.Configuration(downloadTimeout: .seconds(15),
                                                          totalDownloadTimeout: .seconds(1))
        try await withLoader(configuration) { server, downloader in
            server.route("/drip", Self.drip)
            let (result, seconds) = await timedLoad(downloader, ImageDownloadRequest(url: server.url("/drip")))
            guard case .failure(let error) = result, case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(result)")
                return
            }
            #expect(error.code == 2100)
            #expect(failure.kind == .timeout)
            #expect(failure.message == "not complete within the total download timeout of 1 s")
            // Never blocked by the failed-URL list, like every timeout.
            #expect(!error.isPermanentLoadFailure)
            // 1 s plus generous slack for a loaded machine; the whole drip would take 200 s.
            #expect(seconds >= 1 && seconds < 100, "took \(seconds) s")
        }
    }

    @Test func aRequestSetsItsOwnTotalTimeout() async throws {
        let configuration = ImageDownloader.Configuration(totalDownloadTimeout: .zero)
        try await withLoader(configuration) { server, downloader in
            server.route("/drip", Self.drip)
            let request = ImageDownloadRequest(url: server.url("/drip"), totalTimeout: .milliseconds(500))
            let (result, seconds) = await timedLoad(downloader, request)
            #expect(transportKind(result) == .timeout, "\(result)")
            #expect(code(result) == 2100)
            #expect(seconds >= 0.5 && seconds < 100, "took \(seconds) s")
        }
    }

    /// Each gap (500 ms) is far shorter than the idle timeout (3 s, slack for a loaded machine), the whole body
    /// (≈ 4 s) longer: it completes.
    @Test func theIdleTimeoutStillCountsOnlyTheGapsBetweenBytes() async throws {
        let configuration = ImageDownloader.Configuration(downloadTimeout: .seconds(3),
                                                          totalDownloadTimeout: .seconds(60))
        try await withLoader(configuration) { server, downloader in
            let body = testImage(payload: 80)
            server.route("/slow", TestResponse(body: body, behavior: .drip(chunkSize: body.count / 8 + 1,
                                                                           interval: .milliseconds(500))))
            let (result, seconds) = await timedLoad(downloader, ImageDownloadRequest(url: server.url("/slow")))
            #expect((try? result.get().image.pixelWidth) == 64, "\(result)")
            #expect(seconds >= 3.5)
        }
    }

    @Test func theDefaultIsFiniteAndZeroMeansNone() {
        #expect(ImageDownloader.Configuration().totalDownloadTimeout == .seconds(300))
        #expect(ImageDownloader.Configuration().downloadTimeout == .seconds(15))
        #expect(ImageDownloadRequest(url: URL(string: "http://a/b.png")!).totalTimeout == nil)
    }
}
