import Foundation
import Synchronization
import WebImage

/// The image service: checks a request's signature and options, answers from the result cache, or makes
/// the result once however many ask (source through the guarded downloader, processing on bounded workers).
///
/// Mount it in a Hummingbird app with ``addRoutes(to:)``; `webimage serve` runs exactly that.
///
/// ```swift
/// let proxy = ImageProxy(configuration: ImageProxyConfiguration(signing: .init(keyPairs: [pair])))
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
    /// Image and info requests as the operator page shows them.
    let recentRequests: RecentRequests

    let signer: URLSigner
    /// The token image and info requests must carry (`IMGPROXY_SECRET`), if any.
    let secret: BearerSecret?
    let parser: OptionsParser
    let sources: SourceStore
    let results: ResultCache
    /// `package` for `webimage-benchmarks best-format`, which calls its `encodeBest`.
    package let processor: ImageProcessor
    let flights = Singleflight<ProcessedResult>()
    let limiter: WorkLimiter
    let workers: WorkerThreads
    let downloader: ImageDownloader
    /// The configuration's preferred formats the coders can write (imgproxy drops the others the same way).
    let preferredFormats: [ImageFormat]
    /// What every URL's options start from (the operator's `IMGPROXY_STRIP_COLOR_PROFILE` and the like).
    let baseOptions: ProcessingOptions
    /// Recently checked paths.
    let checkedJobs = CheckedJobs(capacity: 1024)
    /// The last `Cache-Control` and `Expires` a result's answer carried.
    let resultExpiry = ResultExpiryFields()
    private let isStopping = Atomic<Bool>(false)

    /// A service with `configuration`; `resolver` turns source host names into addresses (the system's by
    /// default; tests give their own).
    public init(configuration: ImageProxyConfiguration, resolver: any HostResolving = SystemHostResolver()) {
        self.configuration = configuration
        statistics = ProxyStatistics(metricsFactory: configuration.instrumentation.metricsFactory)
        recentRequests = RecentRequests()
        accessLog = AccessLog(logger: configuration.accessLogger, inFlight: statistics.instruments.requestsInFlight,
                              recent: recentRequests)
        signer = URLSigner(keyPairs: configuration.signing.keyPairs, signatureSize: configuration.signing.signatureSize)
        secret = configuration.signing.secret.map(BearerSecret.init)
        parser = OptionsParser(presets: configuration.processing.presets, onlyPresets: configuration.processing.onlyPresets,
                               allowsSecurityOptions: configuration.limits.allowsSecurityOptions)
        let transport = GuardedTransport(policy: configuration.sources.policy, resolver: resolver,
                                         maxRedirects: configuration.sources.maxRedirects,
                                         idleTimeout: configuration.timeouts.downloadIdle,
                                         trustRootFiles: configuration.sources.additionalTrustRootFiles)
        var downloaderConfiguration = ImageDownloader.Configuration(
            maxConcurrentDownloads: max(6, configuration.concurrency.workers), downloadTimeout: configuration.timeouts.downloadIdle,
            totalDownloadTimeout: configuration.timeouts.download, maxResponseBytes: configuration.limits.maxSourceBytes,
            maxDecompressionRatio: 0, redirectLimit: 0)
        downloaderConfiguration.metricsFactory = configuration.instrumentation.metricsFactory
        // S3 sources go to the operator's store, signed; every other source through the guarded transport.
        let sourcesTransport: any ImageTransport = configuration.sources.s3.map {
            RoutingTransport([S3Transport(store: $0, idleTimeout: configuration.timeouts.downloadIdle), transport])
        } ?? transport
        downloader = ImageDownloader(configuration: downloaderConfiguration, transport: sourcesTransport)
        let diskConfiguration = DiskCache.Configuration(maxDiskSize: configuration.caches.diskBytes)
        let statistics = self.statistics
        /// The checked disk store in `name` under the cache directory, if there is one.
        func diskStore(_ name: String) -> CheckedDiskStore? {
            configuration.caches.directory.map {
                CheckedDiskStore(DiskCache(directory: $0.appendingPathComponent(name), configuration: diskConfiguration),
                                 statistics: statistics)
            }
        }
        let shared = configuration.caches.shared.map {
            SharedTier(configuration: $0, statistics: statistics, proxyInstrumentation: configuration.instrumentation)
        }
        // With PDF sources on, a PDF's header is read here and its pages drawn in children; videos are read in
        // children alone.
        var coders = configuration.processing.rendersPDF ? configuration.processing.coders.readingPDFHeaders()
                                                         : configuration.processing.coders
        if configuration.processing.readsVideo {
            coders = coders.readingVideo(configuration.processing.videoThumbnails.coder(
                timeLimit: configuration.timeouts.processing, maxPixels: configuration.limits.maxSourcePixels))
        }
        sources = SourceStore(downloader: downloader, disk: diskStore("sources"), shared: shared,
                              downloadTimeout: configuration.timeouts.download,
                              revalidateAfter: configuration.caches.revalidateSourcesAfter, statistics: statistics,
                              coders: coders,
                              local: configuration.sources.localRoot.flatMap {
                                  LocalSource(root: $0, maxBytes: configuration.limits.maxSourceBytes)
                              },
                              propagatesTraceContext: configuration.sources.propagatesTraceContext)
        // The result store keeps its objects in its own store, or else in the S3 sources' one.
        let store = configuration.caches.resultStore.flatMap { store in
            (store.store ?? configuration.sources.s3).map {
                ResultStore(configuration: store, store: $0, statistics: statistics,
                            metricsFactory: configuration.instrumentation.metricsFactory)
            }
        }
        results = ResultCache(memoryLimit: configuration.caches.memoryBytes, disk: diskStore("results"), shared: shared,
                              store: store, tracing: statistics.instruments.tracing)
        processor = ImageProcessor(coders: coders, maxSourcePixels: configuration.limits.maxSourcePixels,
                                   limits: ProcessingPlan.Limits(maxSide: configuration.limits.maxOutputSide,
                                                                 maxPixels: configuration.limits.maxOutputPixels),
                                   encoding: configuration.processing.encodingDefaults,
                                   watermark: configuration.processing.watermark.map {
                                       WatermarkStep(image: $0.pixels.converted(to: .rgba8),
                                                     opacity: configuration.processing.watermarkOpacity)
                                   },
                                   watermarkOpacity: configuration.processing.watermarkOpacity,
                                   animation: ImageProcessor.AnimationLimits(
                                       maxFrames: configuration.limits.maxAnimationFrames,
                                       maxFramePixels: configuration.limits.maxAnimationFramePixels),
                                   vectors: ImageProcessor.VectorHandling(
                                       sanitizesSVG: configuration.processing.sanitizesSVG,
                                       pdf: configuration.processing.rendersPDF
                                           ? PDFChildRenderer(rendering: configuration.processing.pdfRendering,
                                                              timeLimit: configuration.timeouts.processing) : nil,
                                       alwaysRasterizesSVG: configuration.processing.alwaysRasterizesSVG,
                                       maxSVGZBytes: configuration.limits.maxSourceBytes),
                                   videoTileAutoKeyframes: configuration.processing.videoThumbnails.tileAutoKeyframes)
        limiter = WorkLimiter(workers: configuration.concurrency.workers, queueLimit: configuration.concurrency.queueSize,
                              queueDepth: statistics.instruments.queueDepth)
        workers = WorkerThreads(count: configuration.concurrency.workers)
        preferredFormats = configuration.responses.preferredFormats.filter(configuration.processing.coders.canEncode)
        baseOptions = configuration.processing.baseOptions
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

    /// Releases the downloader's connections, the worker threads, and the shared tier's and the result store's
    /// connections (after their writes under way, at most about one Redis deadline and one store write deadline).
    public func shutdown() async {
        stopAccepting()
        try? await downloader.shutdown()
        await workers.shutdown()
        async let shared: Void = results.shared?.close() ?? ()
        await results.store?.close()
        await shared
    }

    /// The answer to an image request (`GET`/`HEAD` on `/<signature>/<options>/<source>`); when the source
    /// cannot be had and the operator set a fallback image, that image processed the same way.
    public func image(_ request: ProxyRequest) async -> ProxyResponse {
        await image(request) { work in await work() }
    }

    /// ``image(_:)`` with the work after a memory miss run through `watch` (the server's disconnect watch, which
    /// cancels it when the client leaves); a memory hit has no work to stop and is answered without it.
    func image(_ request: ProxyRequest,
               watch: (@escaping @Sendable () async -> ProxyResponse) async -> ProxyResponse) async -> ProxyResponse {
        let job: ProxyJob
        do throws(ProxyError) {
            job = try self.job(for: request.path, accept: request.accept)
        } catch {
            return errorResponse(error)
        }
        if let hit = await memoryHit(request, job: job) { return hit }
        return await watch { await self.image(request, job: job) }
    }

    /// The answer when the job's result is in memory; nil otherwise.
    private func memoryHit(_ request: ProxyRequest, job: ProxyJob) async -> ProxyResponse? {
        let hit = await RequestTrace.timing(.cache) { () async -> ProcessedResult? in
            guard let hit = results.memoryResult(forKey: job.key) else { return nil }
            statistics.record(\.memoryHits)
            return hit
        }
        return hit.map { .result($0, for: request, job: job, ttl: ttl(job.options), expiry: resultExpiry) }
    }

    /// The answer to a checked image request whose result is not in memory.
    private func image(_ request: ProxyRequest, job: ProxyJob) async -> ProxyResponse {
        let deadline = self.deadline(from: request.arrival)
        do throws(ProxyError) {
            let result = try await result(for: job, deadline: deadline)
            return .result(result, for: request, job: job, ttl: ttl(job.options), expiry: resultExpiry)
        } catch {
            if let fallback = await fallback(for: job, after: error, deadline: deadline) {
                return .result(fallback.result, for: request, job: job,
                               ttl: min(configuration.responses.fallbackTTL ?? configuration.responses.cacheTTL,
                                        ttl(job.options)),
                               expiry: resultExpiry, status: fallback.status)
            }
            return errorResponse(error)
        }
    }

    func errorResponse(_ error: ProxyError) -> ProxyResponse {
        if case .tooManyRequests = error { statistics.record(\.rejected) }
        return .error(error, errorTTL: configuration.responses.errorCacheTTL, retryAfter: configuration.concurrency.retryAfterSeconds)
    }

    /// The configured TTL, shortened so a CDN never keeps a URL past its `expires`.
    private func ttl(_ options: ProcessingOptions) -> Int {
        guard let expires = options.expires else { return configuration.responses.cacheTTL }
        return min(configuration.responses.cacheTTL, expires - Int(Date().timeIntervalSince1970))
    }
}
