import Foundation
import NIOPosix
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
/// downloader (coalesced per URL, guarded, size-capped while streaming, with a total deadline).
final class SourceStore: Sendable {
    let downloader: ImageDownloader
    let disk: CheckedDiskStore?
    let shared: SharedTier?
    let downloadTimeout: Duration
    let statistics: ProxyStatistics
    let coders: CodersManager
    /// Where `local://` sources are read; nil: none are.
    let local: LocalSource?
    /// Whether downloads send the download span's context to the origin.
    let propagatesTraceContext: Bool

    init(downloader: ImageDownloader, disk: CheckedDiskStore?, shared: SharedTier? = nil, downloadTimeout: Duration,
         statistics: ProxyStatistics, coders: CodersManager, local: LocalSource? = nil,
         propagatesTraceContext: Bool = false) {
        self.local = local
        self.propagatesTraceContext = propagatesTraceContext
        self.downloader = downloader
        self.disk = disk
        self.shared = shared
        self.downloadTimeout = downloadTimeout
        self.statistics = statistics
        self.coders = coders
    }

    /// The bytes of `url`: from disk if cached (and whole: a file that fails its checksum is removed), else from
    /// the shared tier (then also written to disk), else downloaded (and, when they are an image, cached on disk
    /// and handed to the shared tier's background writes). In the `webimage.source` span (``ImageProxySpans``).
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
        if let disk, let cached = await statistics.instruments.tracing.lookup(ImageProxySpans.sourceCache(.disk), {
            try? await NIOThreadPool.singleton.runIfActive({ disk.read(forKey: key) { data, _ in data } })
        }) {
            statistics.record(\.sourceCacheHits)
            return (SourceBytes(data: cached, header: nil), "disk")
        }
        if let shared, let entry = await statistics.instruments.tracing.lookup(ImageProxySpans.sourceCache(.shared), { () async -> SharedCacheEntry? in
            guard case .hit(let entry) = await shared.lookup(.source, forKey: key) else { return nil }
            return entry
        }) {
            let data = Data(entry.bytes)
            await storeOnDisk(data, forKey: key)
            return (SourceBytes(data: data, header: nil), "shared")
        }
        statistics.record(\.sourceDownloads)
        let download = try await self.download(url)
        // Only images are kept: junk a source sends must not fill the caches for a week. The header read can walk a
        // whole GIF or JPEG XL animation, so it runs off the cooperative pool, as the disk reads do.
        let coders = self.coders, data = download.data
        let header = try? await NIOThreadPool.singleton.runIfActive { try coders.header(for: data) }
        if let header {
            shared?.storeLater(.source, forKey: key, byteCount: download.data.count,
                               SharedCacheEntry(bytes: Array(download.data), format: header.format))
            await storeOnDisk(download.data, forKey: key)
        }
        return (SourceBytes(data: download.data, header: header), "download")
    }

    /// The origin's bytes, in the `webimage.download` client span, whose context the request carries to the origin.
    private func download(_ url: URL) async throws(ProxyError) -> ImageDownloadData {
        try await statistics.instruments.time(.download, named: ImageProxySpans.download, kind: .client) {
            span async throws(ProxyError) in
            if span.isRecording { Self.describe(url, on: span) }
            var request = ImageDownloadRequest(url: url, totalTimeout: downloadTimeout)
            if propagatesTraceContext, let tracer = statistics.instruments.tracing.tracer {
                let context = span.context
                request.requestModifier = { request in
                    var request = request
                    tracer.inject(context, into: &request, using: TransportRequestInjector())
                    return request
                }
            }
            let download: ImageDownloadData
            do throws(WebImageError) {
                download = try await downloader.data(for: request)
            } catch {
                if case .cancelled = error, Task.isCancelled { throw .unavailable("the request was abandoned") }
                throw ProxyError(source: error)
            }
            if span.isRecording {
                if let status = download.response?.status { span.attributes["http.response.status_code"] = status }
                span.attributes["http.response.body.size"] = download.data.count
            }
            return download
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

    private func storeOnDisk(_ data: Data, forKey key: String) async {
        guard let disk else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive { try disk.write(data, forKey: key) }
    }
}
