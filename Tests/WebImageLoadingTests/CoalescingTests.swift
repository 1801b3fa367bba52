import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct CoalescingTests {
    @Test func tenSimultaneousRequestsShareOneNetworkRequest() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage(payload: 20_000), delay: .milliseconds(200)))
            // Started from this thread, not from child tasks a busy pool could start far apart.
            let started = (0..<10).map { _ in start(downloader, ImageDownloadRequest(url: server.url("/a"))) }
            var results: [Result<ImageDownloadResult, WebImageError>] = []
            for download in started { results.append(await download.result()) }
            #expect(server.requestCount(for: "/a") == 1)
            #expect(results.count == 10)
            #expect(results.allSatisfy { (try? $0.get().image.pixelWidth) == 64 })
        }
    }

    @Test func tenCallersGetTheirOwnThumbnailSizesFromOneDownload() async throws {
        try await withLoader { server, downloader in
            server.route("/big", TestResponse(body: TestImageCoder.encode(width: 400, height: 200), delay: .milliseconds(200)))
            let started = (1...10).map { side in
                let size = PixelSize(width: side * 20, height: side * 20)
                return (side * 20, start(downloader, ImageDownloadRequest(url: server.url("/big"),
                                                                          decodeOptions: ImageDecodeOptions(thumbnailPixelSize: size))))
            }
            var widths: [Int: Int?] = [:]
            for (side, download) in started { widths[side] = try? await download.result().get().image.pixelWidth }
            #expect(server.requestCount(for: "/big") == 1)
            for side in stride(from: 20, through: 200, by: 20) { #expect(widths[side] == side) }
        }
    }

    @Test func cancellingOneOfTwoCallersLeavesTheOtherAndOneRequest() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage(), delay: .milliseconds(300)))
            let first = start(downloader, ImageDownloadRequest(url: server.url("/a")))
            let second = start(downloader, ImageDownloadRequest(url: server.url("/a")))
            first.token.cancel()
            #expect(code(await first.result()) == 2002)
            #expect((try? await second.result().get().image.pixelHeight) == 48)
            #expect(server.requestCount(for: "/a") == 1)
        }
    }

    @Test func cancellingTheLastCallerCancelsTheNetworkTask() async throws {
        // A read timeout far beyond the test: on a loaded machine the default 15 s once ended the download first.
        try await withLoader(ImageDownloader.Configuration(downloadTimeout: .seconds(300))) { server, downloader in
            server.route("/slow", TestResponse(body: testImage(), behavior: .hang))
            let events = Recorder<String>()
            _ = downloader.addObserver { if case .stopped = $0 { events.append("stopped") } }
            let only = start(downloader, ImageDownloadRequest(url: server.url("/slow")))
            // Cancel once the request is on the wire, not after a fixed sleep a loaded machine may stretch.
            #expect(await eventually { server.requestCount(for: "/slow") == 1 })
            only.token.cancel()
            #expect(code(await only.result()) == 2002)
            #expect(events.all == ["stopped"])
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test func twoHundredCallersArrivingTenMillisecondsApartAllGetImages() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage(payload: 50_000), behavior: .drip(chunkSize: 10_000, interval: .milliseconds(20))))
            let images = Recorder<Int>()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        if let width = try? await downloader.image(for: ImageDownloadRequest(url: server.url("/a"))).image.pixelWidth {
                            images.append(width)
                        }
                    }
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            #expect(images.count == 200)
            #expect(images.all.allSatisfy { $0 == 64 })
            #expect(server.requestCount(for: "/a") < 200)
        }
    }

    @Test func cancelAllDownloadsFailsEveryCallerAndEmptiesTheQueue() async throws {
        try await withLoader(ImageDownloader.Configuration(maxConcurrentDownloads: 1)) { server, downloader in
            for index in 0..<4 { server.route("/\(index)", TestResponse(body: testImage(), behavior: .hang)) }
            let started = (0..<4).map { start(downloader, ImageDownloadRequest(url: server.url("/\($0)"))) }
            #expect(downloader.currentDownloadCount == 4)
            downloader.cancelAllDownloads()
            for download in started { #expect(code(await download.result()) == 2002) }
            #expect(downloader.currentDownloadCount == 0)
        }
    }
}
