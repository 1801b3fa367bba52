import Foundation
import NIOPosix
import WebImage

/// Where source bytes come from: the disk cache of originals, else the proxy's downloader (coalesced per
/// URL, guarded, size-capped while streaming, with a total deadline).
final class SourceStore: Sendable {
    let downloader: ImageDownloader
    let disk: DiskCache?
    let downloadTimeout: Duration
    let statistics: ProxyStatistics

    init(downloader: ImageDownloader, disk: DiskCache?, downloadTimeout: Duration, statistics: ProxyStatistics) {
        self.downloader = downloader
        self.disk = disk
        self.downloadTimeout = downloadTimeout
        self.statistics = statistics
    }

    /// The bytes of `url`: from disk if cached, else downloaded (and cached when they are an image).
    func data(for url: URL) async throws(ProxyError) -> Data {
        let key = url.absoluteString
        if let disk, let cached = try? await NIOThreadPool.singleton.runIfActive({ disk.data(forKey: key) }) {
            statistics.record(\.sourceCacheHits)
            return cached
        }
        statistics.record(\.sourceDownloads)
        let download: ImageDownloadData
        let start = statistics.instruments.startStage()
        do {
            download = try await downloader.data(for: ImageDownloadRequest(url: url, totalTimeout: downloadTimeout))
            statistics.instruments.endStage(.download, since: start)
        } catch {
            if case .cancelled = error, Task.isCancelled { throw .unavailable("the request was abandoned") }
            throw ProxyError(source: error)
        }
        // Only images are kept: junk a source sends must not fill the cache for a week.
        if let disk, (try? SourceHeader(download.data)) != nil {
            let data = download.data
            _ = try? await NIOThreadPool.singleton.runIfActive { try disk.setData(data, forKey: key) }
        }
        return download.data
    }
}
