import Foundation
import TestSupport
import Testing
import WebImage

/// `Content-Encoding: gzip`/`deflate` bodies are decoded by the transport; a decompression bomb is refused
/// with 2003 and the size limit counts decoded bytes (2101).
@Suite struct ContentEncodingTests {
    @Test(arguments: ["gzip", "deflate"])
    func encodedBodiesAreDecoded(encoding: String) async throws {
        try await withLoader { server, downloader in
            let image = testImage(payload: 5_000)
            let body = encoding == "gzip" ? ContentEncoding.gzip(image) : ContentEncoding.deflate(image)
            #expect(body.count < image.count)
            server.route("/a", TestResponse(headers: [("Content-Encoding", encoding)], body: body))
            let reports = Recorder<(Int, Int)>()
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/a")),
                                    progress: { reports.append(($0, $1)) })
            let download = try result.get()
            #expect(download.data == image)
            #expect(download.image.pixelWidth == 64)
            // The encoded length says nothing about the decoded bytes: unknown until the end, (N, N).
            #expect(reports.all.dropLast().allSatisfy { $0.1 == -1 })
            #expect(reports.all.last.map { [$0.0, $0.1] } == [image.count, image.count])
            #expect(server.requests(for: "/a").first?.header("Accept-Encoding") == "deflate, gzip")
        }
    }

    /// 20 MB of zeros gzip to about 20 KB: inflating 1,000× is far past the default ratio of 25.
    @Test func aGzipBombIsRefusedWithATypedError() async throws {
        try await withLoader { server, downloader in
            let bomb = ContentEncoding.gzip(Data(count: 20_000_000))
            #expect(bomb.count < 100_000)
            server.route("/bomb", TestResponse(headers: [("Content-Encoding", "gzip")], body: bomb))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/bomb")))
            guard case .failure(.invalidDownloadResponse(let message)) = result else {
                Issue.record("expected invalidDownloadResponse, got \(result)")
                return
            }
            #expect(code(result) == 2003)
            #expect(message.contains("decompression bomb"))
        }
    }

    /// Within the ratio (limit raised to 1,000×) but past `maxResponseBytes` once decoded.
    @Test func theSizeLimitCountsDecodedBytes() async throws {
        let configuration = ImageDownloader.Configuration(maxResponseBytes: 10_000, maxDecompressionRatio: 1_000)
        try await withLoader(configuration) { server, downloader in
            let image = testImage(payload: 50_000)
            let body = ContentEncoding.gzip(image)
            #expect(body.count < 10_000)
            server.route("/big", TestResponse(headers: [("Content-Encoding", "gzip")], body: body))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/big")))
            guard case .failure(.responseTooLarge(let limit)) = result else {
                Issue.record("expected responseTooLarge, got \(result)")
                return
            }
            #expect(limit == 10_000)
        }
    }

    /// Ratio 0 turns decoding off: nothing is asked for, and an encoded body reaches the decoder as is (1001).
    @Test func ratioZeroTurnsDecodingOff() async throws {
        try await withLoader(ImageDownloader.Configuration(maxDecompressionRatio: 0)) { server, downloader in
            server.route("/a", TestResponse(headers: [("Content-Encoding", "gzip")], body: ContentEncoding.gzip(testImage())))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/a")))
            #expect(code(result) == 1001, "\(result)")
            #expect(server.requests(for: "/a").first?.header("Accept-Encoding") == nil)
        }
    }

    @Test func corruptEncodedBodiesAreUnusableResponses() async throws {
        try await withLoader { server, downloader in
            server.route("/bad", TestResponse(headers: [("Content-Encoding", "gzip")], body: testImage()))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/bad")))
            #expect(code(result) == 2003, "\(result)")
        }
    }
}
