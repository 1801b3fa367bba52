import Foundation
import TestSupport
import Testing
import WebImage

/// A loader for a custom scheme, to test loader selection.
private final class SchemeLoader: ImageLoading {
    let scheme: String
    let calls = Recorder<URL>()
    init(scheme: String) { self.scheme = scheme }

    func canRequestImage(for url: URL) -> Bool { url.scheme == scheme }

    func requestImage(_ request: ImageDownloadRequest, progress: ImageDownloader.ProgressHandler?,
                      partialImage: ImageDownloader.PartialImageHandler?,
                      completion: @escaping ImageDownloader.CompletionHandler) -> any ImageLoadingToken {
        calls.append(request.url)
        completion(.failure(.cancelled))
        return Token(url: request.url)
    }

    struct Token: ImageLoadingToken {
        let url: URL
        func cancel() {}
    }
}

@Suite struct FileAndLoadersTests {
    @Test func fileURLsLoadThroughTheSamePathWithProgress() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString).timg")
        let bytes = TestImageCoder.encode(width: 30, height: 20, payload: 200_000)
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let downloader = ImageDownloader(transport: RoutingTransport([FileTransport(chunkSize: 50_000)]), coders: .testing())
        let reports = Recorder<(Int, Int)>()
        let result = await load(downloader, ImageDownloadRequest(url: url), progress: { reports.append(($0, $1)) })
        let missing = await load(downloader, ImageDownloadRequest(url: url.appendingPathExtension("missing")))
        try await downloader.shutdown()
        #expect((try? result.get().image.pixelWidth) == 30)
        #expect(reports.all.first! == (0, -1))
        #expect(reports.all.last! == (bytes.count, bytes.count))
        #expect(reports.count == 7)
        #expect(code(missing) == 2003)
    }

    @Test func lastAddedLoaderThatCanRequestTheURLHandlesIt() async throws {
        let first = SchemeLoader(scheme: "asset"), second = SchemeLoader(scheme: "asset"), other = SchemeLoader(scheme: "other")
        let manager = LoadersManager(loaders: [first, other])
        manager.addLoader(second)
        let url = URL(string: "asset://a")!
        _ = manager.requestImage(ImageDownloadRequest(url: url), progress: nil, partialImage: nil) { _ in }
        #expect(second.calls.all == [url])
        #expect(first.calls.count == 0)
        #expect(manager.canRequestImage(for: URL(string: "other://b")!))
        #expect(!manager.canRequestImage(for: URL(string: "none://c")!))
        manager.removeLoader(second)
        _ = manager.requestImage(ImageDownloadRequest(url: url), progress: nil, partialImage: nil) { _ in }
        #expect(first.calls.all == [url])
        let failure = Recorder<Int>()
        await withCheckedContinuation { continuation in
            _ = manager.requestImage(ImageDownloadRequest(url: URL(string: "none://c")!), progress: nil, partialImage: nil) { result in
                if case .failure(let error) = result { failure.append(error.code) }
                continuation.resume()
            }
        }
        #expect(failure.all == [1000])
    }

    @Test func sharedInstancesUseTheDownloader() {
        #expect(LoadersManager.shared.loaders.first === ImageDownloader.shared)
        #expect(ImageDownloader.shared.canRequestImage(for: URL(string: "https://example.com/a.png")!))
        #expect(ImageDownloader.shared.canRequestImage(for: URL(fileURLWithPath: "/tmp/a.png")))
    }
}
