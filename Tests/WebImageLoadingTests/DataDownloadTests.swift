import Foundation
import TestSupport
import Testing
import WebImage

/// ``ImageDownloader/data(for:progress:)``: the bytes undecoded, coalesced with image callers of the URL.
@Suite struct DataDownloadTests {
    @Test func bytesAndImageCallersShareOneRequest() async throws {
        try await withLoader { server, downloader in
            let body = testImage()
            server.route("/a", TestResponse(body: body, delay: .milliseconds(200)))
            // Both started from this thread, so the second surely joins the first's request.
            let image = start(downloader, ImageDownloadRequest(url: server.url("/a")))
            let (results, delivered) = AsyncStream<Result<ImageDownloadData, WebImageError>>.makeStream()
            downloader.downloadData(with: ImageDownloadRequest(url: server.url("/a"))) {
                delivered.yield($0)
                delivered.finish()
            }
            var iterator = results.makeAsyncIterator()
            let data = try #require(await iterator.next()).get()
            #expect(data.data == body)
            #expect(data.response?.status == 200)
            #expect((try? await image.result().get().image.pixelWidth) == 64)
            #expect(server.requestCount(for: "/a") == 1)
        }
    }

    @Test func undecodableBytesAreStillDelivered() async throws {
        try await withLoader { server, downloader in
            server.route("/text", TestResponse(body: Data("not an image".utf8)))
            let data = try await downloader.data(for: ImageDownloadRequest(url: server.url("/text")))
            #expect(String(decoding: data.data, as: UTF8.self) == "not an image")
        }
    }

    @Test func failuresAndCancellationAreTheDownloadersErrors() async throws {
        try await withLoader { server, downloader in
            server.route("/hang", TestResponse(body: testImage(), behavior: .hang))
            await #expect(throws: WebImageError.self) {
                _ = try await downloader.data(for: ImageDownloadRequest(url: server.url("/missing")))
            }
            let waiting = Task { try await downloader.data(for: ImageDownloadRequest(url: server.url("/hang"))) }
            #expect(await eventually { server.requestCount(for: "/hang") == 1 })
            waiting.cancel()
            do {
                _ = try await waiting.value
                Issue.record("a cancelled download returned bytes")
            } catch let error as WebImageError {
                #expect(error.code == 2002)
            }
            #expect(await eventually { downloader.currentDownloadCount == 0 })
        }
    }
}
