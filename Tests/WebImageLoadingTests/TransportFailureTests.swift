import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct TransportFailureTests {
    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        try await withLoader(ImageDownloader.Configuration(redirectLimit: 2)) { server, downloader in
            for hop in 0..<4 { server.route("/hop\(hop)", TestResponse(status: 302, headers: [("Location", "/hop\(hop + 1)")])) }
            server.route("/hop4", TestResponse(body: testImage()))
            let near = try await downloader.image(for: ImageDownloadRequest(url: server.url("/hop2")))
            #expect(near.response?.url.path == "/hop4")
            #expect(transportKind(await load(downloader, ImageDownloadRequest(url: server.url("/hop0")))) == .tooManyRedirects)
        }
    }

    @Test func tlsHandshakeFailureIsATLSError() async throws {
        try await withLoader(ImageDownloader.Configuration(downloadTimeout: .seconds(3))) { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            let url = URL(string: "https://127.0.0.1:\(server.port)/a")!
            let result = await load(downloader, ImageDownloadRequest(url: url))
            #expect(transportKind(result) == .tls, "\(result)")
        }
    }

    @Test func transientKindsAreTheOnesWorthRetrying() {
        #expect(TransportFailure(kind: .timeout, message: "").isTransient)
        #expect(TransportFailure(kind: .connectionReset, message: "").isTransient)
        #expect(!TransportFailure(kind: .tls, message: "").isTransient)
    }
}

/// Decodes like ``TestImageCoder`` once the test opens its gate, so a download stays in its finishing phase
/// until then (at most 10 s).
private final class GatedCoder: ImageCoding {
    let inner = TestImageCoder()
    let gate = DispatchSemaphore(value: 0)
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        // Only a safety net against a hang: the test opens the gate itself, however long a busy machine delays it.
        _ = gate.wait(timeout: .now() + 120)
        return try inner.decode(data, options: options)
    }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try inner.encode(image, as: format, options: options)
    }
}

@Suite struct FinishingPhaseTests {
    @Test func callerAttachingWhileTheDownloadIsDecodingIsServedFromIt() async throws {
        let coder = GatedCoder()
        try await withLoader(coders: CodersManager(coders: [coder])) { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            let (finished, signal) = AsyncStream<Void>.makeStream()
            _ = downloader.addObserver { if case .finished = $0 { signal.yield() } }
            let first = start(downloader, ImageDownloadRequest(url: server.url("/a")))
            var iterator = finished.makeAsyncIterator()
            _ = await iterator.next()
            let late = start(downloader, ImageDownloadRequest(url: server.url("/a"),
                                                             decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32))))
            coder.gate.signal()
            coder.gate.signal()
            #expect((try? await first.result().get().image.pixelWidth) == 64)
            #expect((try? await late.result().get().image.pixelWidth) == 32)
            #expect(server.requestCount(for: "/a") == 1)
        }
    }
}
