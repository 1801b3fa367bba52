import Foundation
import TestSupport
import Testing
import WebImage

/// Files, devices and pipes read by the library stop at a byte limit: `/dev/zero` never ends and reports size 0.
@Suite struct FileInputLimitTests {
    private static let zero = URL(fileURLWithPath: "/dev/zero")

    @Test func fileTransportStopsADeviceAtItsLimit() async throws {
        let downloader = ImageDownloader(transport: FileTransport(maxBytes: 1_000_000), coders: .testing())
        let reports = Recorder<(Int, Int)>()
        let (result, seconds) = await timedLoad(downloader, ImageDownloadRequest(url: Self.zero))
        let progress = await load(downloader, ImageDownloadRequest(url: URL(fileURLWithPath: "/dev/urandom")),
                                  progress: { reports.append(($0, $1)) })
        try await downloader.shutdown()
        guard case .failure(.responseTooLarge(let limit)) = result else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
        #expect(limit == 1_000_000)
        #expect(code(progress) == 2101)
        // A device has no length to announce.
        #expect(!reports.all.isEmpty && reports.all.allSatisfy { $0.1 == -1 })
        #expect(seconds < 30, "took \(seconds) s")
    }

    /// The downloader hands its `maxResponseBytes` to its default file transport.
    @Test func theDownloaderLimitAppliesToFileURLs() async throws {
        let downloader = ImageDownloader(configuration: .init(maxResponseBytes: 500_000), coders: .testing())
        let result = await load(downloader, ImageDownloadRequest(url: Self.zero))
        try await downloader.shutdown()
        guard case .failure(.responseTooLarge(let limit)) = result else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
        #expect(limit == 500_000)
    }

    /// A regular file already over the limit is refused from its size, before any byte is read.
    @Test func aRegularFileOverTheLimitIsRefusedUpFront() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString).timg")
        try testImage(payload: 4_000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reports = Recorder<(Int, Int)>()
        let downloader = ImageDownloader(transport: FileTransport(maxBytes: 1_000), coders: .testing())
        let result = await load(downloader, ImageDownloadRequest(url: url), progress: { reports.append(($0, $1)) })
        let missing = await load(downloader, ImageDownloadRequest(url: url.appendingPathExtension("missing")))
        try await downloader.shutdown()
        #expect(code(result) == 2101)
        #expect(reports.all.allSatisfy { $0.0 == 0 })
        #expect(code(missing) == 2003)
    }

    @Test func animatedImageReadsAFileWithinItsLimit() throws {
        #expect(FileTransport.defaultMaxBytes == 100_000_000)
        do {
            _ = try AnimatedImage(contentsOf: Self.zero, maxBytes: 1_000_000)
            Issue.record("expected responseTooLarge")
        } catch let error as WebImageError {
            guard case .responseTooLarge(let limit) = error else {
                Issue.record("expected responseTooLarge, got \(error)")
                return
            }
            #expect(limit == 1_000_000)
        }
    }
}
