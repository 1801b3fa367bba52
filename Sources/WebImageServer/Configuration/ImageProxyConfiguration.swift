import Foundation
import Logging
import Metrics
import WebImage

/// Everything an ``ImageProxy`` is set up with; every property's documentation gives its default, which is
/// also what `webimage serve` starts with.
///
/// The defaults are stricter than imgproxy's: signatures required, private networks unreachable, finite
/// limits everywhere.
public struct ImageProxyConfiguration: Sendable {
    /// Key/salt pairs accepted for signatures, the first one signing (``URLSigner``). Default none: every URL
    /// is refused unless ``allowsUnsigned`` is set.
    public var keyPairs: [URLSigner.KeyPair]
    /// Bytes of the HMAC kept in a signature (imgproxy's `IMGPROXY_SIGNATURE_SIZE`). Default 32: all.
    public var signatureSize: Int
    /// Accept `_` and `unsafe` instead of a signature. Default false.
    public var allowsUnsigned: Bool
    /// Which sources may be fetched: schemes, an allowlist of prefixes, private addresses. Default
    /// `SourcePolicy()`: http and https, any prefix, public addresses only.
    public var sourcePolicy: SourcePolicy
    /// Named option lists for `preset:NAME`. Default none.
    public var presets: [String: String]
    /// Where the source and result caches live (`sources/` and `results/` inside). Default nil: memory only.
    public var cacheDirectory: URL?
    /// Bytes the disk cache of sources, and separately that of results, may take. Default 1 GiB each.
    public var maxDiskCacheBytes: Int
    /// Bytes of encoded results kept in memory. Default 64 MiB.
    public var memoryCacheBytes: Int
    /// The largest source body accepted, enforced while it streams in (a larger one stops the download: 422).
    /// Default 50 MB.
    public var maxSourceBytes: Int
    /// The largest source resolution, in pixels, read from the header before decoding (larger: 422).
    /// Default 50,000,000 (50 MP).
    public var maxSourcePixels: Int
    /// The largest width or height of a result; a larger result is scaled down to fit. Default 8,192.
    public var maxOutputSide: Int
    /// The most pixels a result may have; a larger result is scaled down to fit. It bounds a worker's memory
    /// (a blur works on 16 bytes a pixel). Default 16,777,216 (4096 × 4096).
    public var maxOutputPixels: Int
    /// The most a whole source download may take, however steadily its bytes arrive (then 504). Default 5 s.
    public var downloadTimeout: Duration
    /// The most a source may stay silent while connecting or sending (then 504). Default 3 s.
    public var downloadIdleTimeout: Duration
    /// The most decoding, transforming and encoding one result may take (then 503); a request waits at most
    /// ``downloadTimeout`` plus this in all, queueing included. Default 10 s.
    public var processingTimeout: Duration
    /// Requests processed at once (download, decode, transform, encode). Default the number of cores.
    public var workers: Int
    /// Requests waiting for a worker; one more is refused at once with 429. Default 2 × ``workers``.
    public var queueSize: Int
    /// The `Retry-After` sent with 429, in seconds. Default 1.
    public var retryAfterSeconds: Int
    /// Choose AVIF, WebP or the source format from `Accept` when the URL names no format (and send
    /// `Vary: Accept`); false always answers the source format, for CDNs that ignore `Vary`. Default true. A
    /// HEIC, HEIF or JPEG XL source, a format the service does not write, is answered as JPEG (PNG when
    /// transparent, GIF when animated).
    public var negotiatesFormat: Bool
    /// Whether negotiation may choose AVIF (before WebP) for clients that list `image/avif`; false keeps
    /// negotiation to WebP, for services that would rather not pay AVIF's encoding CPU. Default true.
    public var negotiatesAVIF = true
    /// The coders sources are read, decoded and encoded with: their headers (``ImageHeaderReading``) decide
    /// which sources are images, and their limits apply. Default `CodersManager.shared` (every built-in coder).
    public var coders: CodersManager = .shared
    /// `max-age` of successful answers. Default one year (31,536,000 s), with `immutable`.
    public var cacheTTL: Int
    /// `max-age` of 5xx answers, so a CDN retries soon. Default 10 s.
    public var errorCacheTTL: Int
    /// Quality used when the URL gives none (JPEG and WebP). Default 80.
    public var defaultQuality: Int
    /// Redirects followed per source, each hop checked like the source itself. Default 5.
    public var maxRedirects: Int
    /// A Redis tier shared with other instances, after memory and disk. Default nil: none.
    public var sharedCache: SharedCacheConfiguration?

    // Observability and TLS trust: set on a made configuration (not initializer parameters).

    /// Where the service's metrics (``ImageProxyMetrics``) and its downloader's (``WebImageMetrics``) are made.
    /// Default `MetricsSystem.factory` as it is when the configuration is made: bootstrap swift-metrics first.
    public var metricsFactory: any MetricsFactory = MetricsSystem.factory
    /// The access log: one `info` line per request (method, redacted path, status, bytes, duration, cache
    /// outcome as metadata; `webimage serve` labels it `SwiftWebImage.serve.access`). Default nil: none.
    public var accessLogger: Logger?
    /// PEM files of certificate authorities trusted for https sources besides the system's (an internal CA).
    /// Host names are still verified against the certificates. Default none: the system's roots only.
    public var additionalTrustRootFiles: [String] = []

    /// A configuration with every default as documented.
    public init(keyPairs: [URLSigner.KeyPair] = [], signatureSize: Int = 32, allowsUnsigned: Bool = false,
                sourcePolicy: SourcePolicy = SourcePolicy(), presets: [String: String] = [:],
                cacheDirectory: URL? = nil, maxDiskCacheBytes: Int = 1 << 30, memoryCacheBytes: Int = 64 << 20,
                maxSourceBytes: Int = 50_000_000, maxSourcePixels: Int = 50_000_000, maxOutputSide: Int = 8192,
                maxOutputPixels: Int = 16_777_216,
                downloadTimeout: Duration = .seconds(5), downloadIdleTimeout: Duration = .seconds(3),
                processingTimeout: Duration = .seconds(10),
                workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueSize: Int? = nil,
                retryAfterSeconds: Int = 1, negotiatesFormat: Bool = true, cacheTTL: Int = 31_536_000,
                errorCacheTTL: Int = 10, defaultQuality: Int = 80, maxRedirects: Int = 5,
                sharedCache: SharedCacheConfiguration? = nil) {
        self.keyPairs = keyPairs
        self.signatureSize = signatureSize
        self.allowsUnsigned = allowsUnsigned
        self.sourcePolicy = sourcePolicy
        self.presets = presets
        self.cacheDirectory = cacheDirectory
        self.maxDiskCacheBytes = maxDiskCacheBytes
        self.memoryCacheBytes = memoryCacheBytes
        self.maxSourceBytes = maxSourceBytes
        self.maxSourcePixels = maxSourcePixels
        self.maxOutputSide = maxOutputSide
        self.maxOutputPixels = maxOutputPixels
        self.downloadTimeout = downloadTimeout
        self.downloadIdleTimeout = downloadIdleTimeout
        self.processingTimeout = processingTimeout
        self.workers = max(1, workers)
        self.queueSize = max(0, queueSize ?? 2 * max(1, workers))
        self.retryAfterSeconds = retryAfterSeconds
        self.negotiatesFormat = negotiatesFormat
        self.cacheTTL = cacheTTL
        self.errorCacheTTL = errorCacheTTL
        self.defaultQuality = defaultQuality
        self.maxRedirects = maxRedirects
        self.sharedCache = sharedCache
    }
}
