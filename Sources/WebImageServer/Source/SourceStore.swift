import Foundation
import NIOPosix
import Synchronization
import Tracing
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
    /// Whether downloads send the download span's context to the origin.
    let propagatesTraceContext: Bool
    /// Whether a large source's store is running (see ``storeOnDisk(_:_:forKey:)``).
    private let storingLargeSource = Atomic<Bool>(false)

    init(downloader: ImageDownloader, disk: CheckedDiskStore?, shared: SharedTier? = nil, downloadTimeout: Duration,
         revalidateAfter: Duration = .seconds(3600), statistics: ProxyStatistics, coders: CodersManager,
         local: LocalSource? = nil, propagatesTraceContext: Bool = false) {
        self.local = local
        self.propagatesTraceContext = propagatesTraceContext
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
    /// writes). A stale copy is revalidated: a 304 serves it, a changed source replaces it. In the
    /// `webimage.source` span (``ImageProxySpans``).
    func data(for url: URL) async throws(ProxyError) -> SourceBytes {
        try await statistics.instruments.tracing.run(ImageProxySpans.source) { span async throws(ProxyError) in
            let (bytes, from) = try await lookUp(url)
            if span.isRecording { span.attributes[ImageProxySpans.Attribute.sourceFrom] = from }
            return bytes
        }
    }

    private func lookUp(_ url: URL) async throws(ProxyError) -> (SourceBytes, from: String) {
        if url.scheme == "local" { return (try await localData(for: url), "local") }
        let key = url.absoluteString
        var stale: CachedCopy?
        if let disk, let cached = await statistics.instruments.tracing.lookup(ImageProxySpans.sourceCache(.disk), {
            try? await NIOThreadPool.singleton.runIfActive {
                disk.read(forKey: key) { data, extended in CachedCopy(data: data, record: SourceRecord(stored: extended)) }
            }
        }) {
            if let record = cached.record, record.isFresh(at: Date(), for: revalidateAfter) {
                statistics.record(\.sourceCacheHits)
                return (SourceBytes(data: cached.data, header: nil), "disk")
            }
            stale = cached
        }
        if stale == nil, let shared, let entry = await statistics.instruments.tracing.lookup(
            ImageProxySpans.sourceCache(.shared), { () async -> SharedCacheEntry? in
                guard case .hit(let entry) = await shared.lookup(.source, forKey: key) else { return nil }
                return entry
            }) {
            let data = Data(entry.bytes)
            // The shared tier keeps no validators: the copy counts as confirmed now, and is fetched whole when stale.
            await storeOnDisk(data, SourceRecord(confirmedAt: Date(), validators: nil), forKey: key)
            return (SourceBytes(data: data, header: nil), "shared")
        }
        return (try await download(url, key: key, revalidating: stale), stale == nil ? "download" : "revalidation")
    }

    /// Fetches `url`, conditionally when a stale copy has validators.
    private func download(_ url: URL, key: String, revalidating stale: CachedCopy?) async throws(ProxyError) -> SourceBytes {
        statistics.record(\.sourceDownloads)
        let download: ImageDownloadData
        switch await fetch(url, validators: stale?.record?.validators) {
        case .success(let fetched):
            download = fetched
            statistics.record(\.sourceBytes, by: download.data.count)
        case .failure(let error):
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

    /// The origin's answer, in the `webimage.download` client span, whose context the request carries to the origin
    /// when the operator allows it. A 304 to a conditional request is an outcome, not an error of the span.
    private func fetch(_ url: URL, validators: HTTPValidators?) async -> Result<ImageDownloadData, WebImageError> {
        await statistics.instruments.time(.download, named: ImageProxySpans.download, kind: .client) { span async in
            if span.isRecording { Self.describe(url, on: span) }
            var request = ImageDownloadRequest(url: url, totalTimeout: downloadTimeout)
            if let validators {
                request.options.insert(.refreshCached)
                request.cachedValidators = validators
            }
            if propagatesTraceContext, let tracer = statistics.instruments.tracing.tracer {
                let context = span.context
                request.requestModifier = { request in
                    var request = request
                    tracer.inject(context, into: &request, using: TransportRequestInjector())
                    return request
                }
            }
            do throws(WebImageError) {
                let download = try await downloader.data(for: request)
                if span.isRecording {
                    if let status = download.response?.status { span.attributes["http.response.status_code"] = status }
                    span.attributes["http.response.body.size"] = download.data.count
                }
                return .success(download)
            } catch {
                if case .cacheNotModified = error {
                    if span.isRecording { span.attributes["http.response.status_code"] = 304 }
                } else {
                    span.recordError(error)
                }
                return .failure(error)
            }
        }
    }

    /// The download span's request attributes: the source without user, query or fragment (S3 version ids and
    /// signed-URL parameters stay out of traces).
    private static func describe(_ url: URL, on span: any Span) {
        span.attributes["http.request.method"] = "GET"
        if let host = url.host { span.attributes["server.address"] = host }
        if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            components.query = nil
            components.fragment = nil
            if let full = components.string { span.attributes["url.full"] = full }
        }
    }

    /// What a failed revalidation leaves: a 304 confirms the copy; an origin that is down, failing or slow (no
    /// connection, 5xx, silence: answered 404, 502 or 504 without a copy) leaves it served as it is; any other
    /// answer (gone, refused, no longer an image) removes it.
    private func settle(_ stale: CachedCopy, key: String, after error: WebImageError) async throws(ProxyError) -> SourceBytes {
        if case .cacheNotModified = error {
            statistics.record(\.sourcesNotModified)
            await storeOnDisk(stale.data, SourceRecord(confirmedAt: Date(), validators: stale.record?.validators),
                              forKey: key)
            return SourceBytes(data: stale.data, header: nil)
        }
        let failure = ProxyError(source: error), unreachable = if case .transport = error { true } else { false }
        guard unreachable || [502, 503, 504].contains(failure.status) else {
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

    /// Writes the source to the disk cache. A large one (``DiskCache/directWriteThreshold``, written with direct
    /// I/O) is written after the answer, one at a time, and skipped (counted) while one is being written: its write
    /// waits on the disk's bandwidth (7 MB sources at 15 a second are 100 MB/s), which must not hold answers back
    /// nor queue up sources in memory.
    private func storeOnDisk(_ data: Data, _ record: SourceRecord, forKey key: String) async {
        guard let disk else { return }
        guard data.count >= DiskCache.directWriteThreshold else {
            _ = try? await NIOThreadPool.singleton.runIfActive { try disk.write(data, forKey: key, extended: record.stored) }
            return
        }
        guard storingLargeSource.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            statistics.record(\.sourceStoresSkipped)
            return
        }
        NIOThreadPool.singleton.submit { [self] state in
            defer { storingLargeSource.store(false, ordering: .releasing) }
            guard case .active = state else { return }
            try? disk.write(data, forKey: key, extended: record.stored)
        }
    }
}
