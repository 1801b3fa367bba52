import Foundation
import NIOPosix
import WebImage
import WebImageRedis

/// A source's bytes, and its header when it was read on the way (a download's, to decide whether to cache it),
/// so processing reads it no second time.
struct SourceBytes: Sendable {
    var data: Data
    var header: ImageHeader?
}

/// Where source bytes come from: the disk cache of originals, then the shared tier, else the proxy's
/// downloader (coalesced per URL, guarded, size-capped while streaming, with a total deadline). A cached copy
/// older than `revalidateAfter` is confirmed with the origin first, with the validators it came with.
final class SourceStore: Sendable {
    let downloader: ImageDownloader
    let disk: CheckedDiskStore?
    let shared: SharedTier?
    let downloadTimeout: Duration
    let revalidateAfter: Duration
    let statistics: ProxyStatistics
    let coders: CodersManager
    /// Where `local://` sources are read; nil: none are.
    let local: LocalSource?

    init(downloader: ImageDownloader, disk: CheckedDiskStore?, shared: SharedTier? = nil, downloadTimeout: Duration,
         revalidateAfter: Duration = .seconds(3600), statistics: ProxyStatistics, coders: CodersManager,
         local: LocalSource? = nil) {
        self.local = local
        self.downloader = downloader
        self.disk = disk
        self.shared = shared
        self.downloadTimeout = downloadTimeout
        self.revalidateAfter = revalidateAfter
        self.statistics = statistics
        self.coders = coders
    }

    /// A copy on disk and what is known of it.
    private struct CachedCopy {
        var data: Data
        var record: SourceRecord?
    }

    /// The bytes of `url`: from disk if cached (and whole: a file that fails its checksum is removed) and
    /// confirmed less than `revalidateAfter` ago, else from the shared tier (then also written to disk), else
    /// downloaded (and, when they are an image, cached on disk and handed to the shared tier's background
    /// writes). A stale copy is revalidated: a 304 serves it, a changed source replaces it.
    func data(for url: URL) async throws(ProxyError) -> SourceBytes {
        if url.scheme == "local" { return try await localData(for: url) }
        let key = url.absoluteString
        var stale: CachedCopy?
        if let disk, let cached = try? await NIOThreadPool.singleton.runIfActive({
            disk.read(forKey: key) { data, extended in CachedCopy(data: data, record: SourceRecord(stored: extended)) }
        }) {
            if let record = cached.record, record.isFresh(at: Date(), for: revalidateAfter) {
                statistics.record(\.sourceCacheHits)
                return SourceBytes(data: cached.data, header: nil)
            }
            stale = cached
        }
        if stale == nil, let shared, case .hit(let entry) = await shared.lookup(.source, forKey: key) {
            let data = Data(entry.bytes)
            // The shared tier keeps no validators: the copy counts as confirmed now, and is fetched whole when stale.
            await storeOnDisk(data, SourceRecord(confirmedAt: Date(), validators: nil), forKey: key)
            return SourceBytes(data: data, header: nil)
        }
        return try await download(url, key: key, revalidating: stale)
    }

    /// Fetches `url`, conditionally when a stale copy has validators.
    private func download(_ url: URL, key: String, revalidating stale: CachedCopy?) async throws(ProxyError) -> SourceBytes {
        statistics.record(\.sourceDownloads)
        var request = ImageDownloadRequest(url: url, totalTimeout: downloadTimeout)
        if let validators = stale?.record?.validators {
            request.options.insert(.refreshCached)
            request.cachedValidators = validators
        }
        let download: ImageDownloadData
        let start = statistics.instruments.startStage()
        do {
            download = try await downloader.data(for: request)
            statistics.instruments.endStage(.download, since: start)
        } catch {
            if case .cancelled = error, Task.isCancelled { throw .unavailable("the request was abandoned") }
            guard let stale else { throw ProxyError(source: error) }
            return try await settle(stale, key: key, after: error)
        }
        // Only images are kept: junk a source sends must not fill the caches for a week. The header read can walk a
        // whole GIF or JPEG XL animation, so it runs off the cooperative pool, as the disk reads do.
        let coders = self.coders, data = download.data
        let header = try? await NIOThreadPool.singleton.runIfActive { try coders.header(for: data) }
        if let header {
            shared?.storeLater(.source, forKey: key, byteCount: download.data.count,
                               SharedCacheEntry(bytes: Array(download.data), format: header.format))
            let validators = download.response.flatMap(HTTPValidators.init(head:))
            await storeOnDisk(download.data, SourceRecord(confirmedAt: Date(), validators: validators), forKey: key)
        }
        return SourceBytes(data: download.data, header: header)
    }

    /// What a failed revalidation leaves: a 304 confirms the copy; an origin that is down, failing or slow
    /// (502, 503, 504) leaves it served as it is; any other answer (gone, refused, no longer an image) removes it.
    private func settle(_ stale: CachedCopy, key: String, after error: WebImageError) async throws(ProxyError) -> SourceBytes {
        if case .cacheNotModified = error {
            statistics.record(\.sourcesNotModified)
            await storeOnDisk(stale.data, SourceRecord(confirmedAt: Date(), validators: stale.record?.validators),
                              forKey: key)
            return SourceBytes(data: stale.data, header: nil)
        }
        let failure = ProxyError(source: error)
        guard [502, 503, 504].contains(failure.status) else {
            if let disk { _ = try? await NIOThreadPool.singleton.runIfActive { disk.disk.removeData(forKey: key) } }
            throw failure
        }
        statistics.record(\.staleSourcesServed)
        return SourceBytes(data: stale.data, header: nil)
    }

    /// A local source, read off the cooperative pool; never cached as a source (it is on disk already).
    private func localData(for url: URL) async throws(ProxyError) -> SourceBytes {
        guard let local else { throw .sourceNotAllowed("local sources are off") }
        let coders = self.coders
        let result = try? await NIOThreadPool.singleton.runIfActive { () -> Result<SourceBytes, ProxyError> in
            Result { () throws(ProxyError) in
                let data = try local.read(url)
                return SourceBytes(data: data, header: try? coders.header(for: data))
            }
        }
        guard let result else { throw .unavailable("the service is stopping") }
        return try result.get()
    }

    private func storeOnDisk(_ data: Data, _ record: SourceRecord, forKey key: String) async {
        guard let disk else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive { try disk.write(data, forKey: key, extended: record.stored) }
    }
}
