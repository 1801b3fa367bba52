import Foundation
import Synchronization
import WebImage

/// The image service: checks a request's signature and options, answers from the result cache, or makes
/// the result once however many ask (source through the guarded downloader, processing on bounded workers).
///
/// Mount it in a Hummingbird app with ``addRoutes(to:)``; `webimage serve` runs exactly that.
///
/// ```swift
/// let proxy = ImageProxy(configuration: ImageProxyConfiguration(keyPairs: [pair]))
/// let router = Router(context: ImageProxyRequestContext.self)
/// proxy.addRoutes(to: router)
/// try await Application(router: router).runService()
/// await proxy.shutdown()
/// ```
public final class ImageProxy: Sendable {
    public let configuration: ImageProxyConfiguration
    /// What the service has done so far (each count also feeds its metric).
    public let statistics: ProxyStatistics
    let accessLog: AccessLog

    let signer: URLSigner
    let parser: OptionsParser
    let sources: SourceStore
    let results: ResultCache
    let processor: ImageProcessor
    let flights = Singleflight<ProcessedResult>()
    let limiter: WorkLimiter
    let workers: WorkerThreads
    let downloader: ImageDownloader
    private let isStopping = Atomic<Bool>(false)

    /// A service with `configuration`; `resolver` turns source host names into addresses (the system's by
    /// default; tests give their own).
    public init(configuration: ImageProxyConfiguration, resolver: any HostResolving = SystemHostResolver()) {
        self.configuration = configuration
        statistics = ProxyStatistics(metricsFactory: configuration.metricsFactory)
        accessLog = AccessLog(logger: configuration.accessLogger, inFlight: statistics.instruments.requestsInFlight)
        signer = URLSigner(keyPairs: configuration.keyPairs, signatureSize: configuration.signatureSize)
        parser = OptionsParser(presets: configuration.presets)
        let transport = GuardedTransport(policy: configuration.sourcePolicy, resolver: resolver,
                                         maxRedirects: configuration.maxRedirects,
                                         idleTimeout: configuration.downloadIdleTimeout,
                                         trustRootFiles: configuration.additionalTrustRootFiles)
        var downloaderConfiguration = ImageDownloader.Configuration(
            maxConcurrentDownloads: max(6, configuration.workers), downloadTimeout: configuration.downloadIdleTimeout,
            totalDownloadTimeout: configuration.downloadTimeout, maxResponseBytes: configuration.maxSourceBytes,
            maxDecompressionRatio: 0, redirectLimit: 0)
        downloaderConfiguration.metricsFactory = configuration.metricsFactory
        downloader = ImageDownloader(configuration: downloaderConfiguration, transport: transport)
        let diskConfiguration = DiskCache.Configuration(maxDiskSize: configuration.maxDiskCacheBytes)
        let statistics = self.statistics
        /// The checked disk store in `name` under the cache directory, if there is one.
        func diskStore(_ name: String) -> CheckedDiskStore? {
            configuration.cacheDirectory.map {
                CheckedDiskStore(DiskCache(directory: $0.appendingPathComponent(name), configuration: diskConfiguration),
                                 statistics: statistics)
            }
        }
        let shared = configuration.sharedCache.map { SharedTier(configuration: $0, statistics: statistics) }
        sources = SourceStore(downloader: downloader, disk: diskStore("sources"), shared: shared,
                              downloadTimeout: configuration.downloadTimeout, statistics: statistics,
                              coders: configuration.coders)
        results = ResultCache(memoryLimit: configuration.memoryCacheBytes, disk: diskStore("results"), shared: shared)
        processor = ImageProcessor(coders: configuration.coders, maxSourcePixels: configuration.maxSourcePixels,
                                   limits: ProcessingPlan.Limits(maxSide: configuration.maxOutputSide,
                                                                 maxPixels: configuration.maxOutputPixels),
                                   defaultQuality: configuration.defaultQuality)
        limiter = WorkLimiter(workers: configuration.workers, queueLimit: configuration.queueSize,
                              queueDepth: statistics.instruments.queueDepth)
        workers = WorkerThreads(count: configuration.workers)
    }

    /// False while the queue is full or the service is stopping: a load balancer should send elsewhere.
    public var isReady: Bool { !isStoppingNow && !limiter.isFull }

    var isStoppingNow: Bool { isStopping.load(ordering: .relaxed) }

    /// Results being made now (each shared by every request waiting for it).
    public var resultsInProgress: Int { flights.count }

    /// Stops taking new work (new requests get 503 unless cached; `/ready` turns false); requests under way
    /// go on. Call ``shutdown()`` once they are done.
    public func stopAccepting() {
        isStopping.store(true, ordering: .relaxed)
    }

    /// Releases the downloader's connections, the worker threads and the shared tier's connections (after
    /// its writes under way, at most about one Redis deadline).
    public func shutdown() async {
        stopAccepting()
        try? await downloader.shutdown()
        await workers.shutdown()
        await results.shared?.close()
    }

    /// The answer to an image request (`GET`/`HEAD` on `/<signature>/<options>/<source>`).
    public func image(_ request: ProxyRequest) async -> ProxyResponse {
        do throws(ProxyError) {
            let job = try job(for: request.path, accept: request.accept)
            let result = try await result(for: job)
            return .result(result, for: request, variesByAccept: job.format.dependsOnAccept, ttl: ttl(job.options))
        } catch {
            return errorResponse(error)
        }
    }

    func errorResponse(_ error: ProxyError) -> ProxyResponse {
        if case .tooManyRequests = error { statistics.record(\.rejected) }
        return .error(error, errorTTL: configuration.errorCacheTTL, retryAfter: configuration.retryAfterSeconds)
    }

    /// The configured TTL, shortened so a CDN never keeps a URL past its `expires`.
    private func ttl(_ options: ProcessingOptions) -> Int {
        guard let expires = options.expires else { return configuration.cacheTTL }
        return min(configuration.cacheTTL, expires - Int(Date().timeIntervalSince1970))
    }
}
