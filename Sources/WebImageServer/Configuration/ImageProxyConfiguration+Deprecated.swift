import Foundation
import Metrics
import WebImage

/// The flat names of the first releases, each now a property of a section.
extension ImageProxyConfiguration {
    @available(*, deprecated, renamed: "signing.keyPairs")
    public var keyPairs: [URLSigner.KeyPair] {
        get { signing.keyPairs }
        set { signing.keyPairs = newValue }
    }

    @available(*, deprecated, renamed: "signing.signatureSize")
    public var signatureSize: Int {
        get { signing.signatureSize }
        set { signing.signatureSize = newValue }
    }

    @available(*, deprecated, renamed: "signing.allowsUnsigned")
    public var allowsUnsigned: Bool {
        get { signing.allowsUnsigned }
        set { signing.allowsUnsigned = newValue }
    }

    @available(*, deprecated, renamed: "sources.policy")
    public var sourcePolicy: SourcePolicy {
        get { sources.policy }
        set { sources.policy = newValue }
    }

    @available(*, deprecated, renamed: "sources.maxRedirects")
    public var maxRedirects: Int {
        get { sources.maxRedirects }
        set { sources.maxRedirects = newValue }
    }

    @available(*, deprecated, renamed: "sources.additionalTrustRootFiles")
    public var additionalTrustRootFiles: [String] {
        get { sources.additionalTrustRootFiles }
        set { sources.additionalTrustRootFiles = newValue }
    }

    @available(*, deprecated, renamed: "limits.maxSourceBytes")
    public var maxSourceBytes: Int {
        get { limits.maxSourceBytes }
        set { limits.maxSourceBytes = newValue }
    }

    @available(*, deprecated, renamed: "limits.maxSourcePixels")
    public var maxSourcePixels: Int {
        get { limits.maxSourcePixels }
        set { limits.maxSourcePixels = newValue }
    }

    @available(*, deprecated, renamed: "limits.maxOutputSide")
    public var maxOutputSide: Int {
        get { limits.maxOutputSide }
        set { limits.maxOutputSide = newValue }
    }

    @available(*, deprecated, renamed: "limits.maxOutputPixels")
    public var maxOutputPixels: Int {
        get { limits.maxOutputPixels }
        set { limits.maxOutputPixels = newValue }
    }

    @available(*, deprecated, renamed: "timeouts.download")
    public var downloadTimeout: Duration {
        get { timeouts.download }
        set { timeouts.download = newValue }
    }

    @available(*, deprecated, renamed: "timeouts.downloadIdle")
    public var downloadIdleTimeout: Duration {
        get { timeouts.downloadIdle }
        set { timeouts.downloadIdle = newValue }
    }

    @available(*, deprecated, renamed: "timeouts.processing")
    public var processingTimeout: Duration {
        get { timeouts.processing }
        set { timeouts.processing = newValue }
    }

    @available(*, deprecated, renamed: "caches.directory")
    public var cacheDirectory: URL? {
        get { caches.directory }
        set { caches.directory = newValue }
    }

    @available(*, deprecated, renamed: "caches.memoryBytes")
    public var memoryCacheBytes: Int {
        get { caches.memoryBytes }
        set { caches.memoryBytes = newValue }
    }

    @available(*, deprecated, renamed: "caches.diskBytes")
    public var maxDiskCacheBytes: Int {
        get { caches.diskBytes }
        set { caches.diskBytes = newValue }
    }

    @available(*, deprecated, renamed: "caches.shared")
    public var sharedCache: SharedCacheConfiguration? {
        get { caches.shared }
        set { caches.shared = newValue }
    }

    @available(*, deprecated, renamed: "concurrency.workers")
    public var workers: Int {
        get { concurrency.workers }
        set { concurrency.workers = newValue }
    }

    @available(*, deprecated, renamed: "concurrency.queueSize")
    public var queueSize: Int {
        get { concurrency.queueSize }
        set { concurrency.queueSize = newValue }
    }

    @available(*, deprecated, renamed: "concurrency.retryAfterSeconds")
    public var retryAfterSeconds: Int {
        get { concurrency.retryAfterSeconds }
        set { concurrency.retryAfterSeconds = newValue }
    }

    @available(*, deprecated, renamed: "processing.presets")
    public var presets: [String: String] {
        get { processing.presets }
        set { processing.presets = newValue }
    }

    @available(*, deprecated, renamed: "processing.defaultQuality")
    public var defaultQuality: Int {
        get { processing.defaultQuality }
        set { processing.defaultQuality = newValue }
    }

    @available(*, deprecated, renamed: "processing.coders")
    public var coders: CodersManager {
        get { processing.coders }
        set { processing.coders = newValue }
    }

    @available(*, deprecated, renamed: "responses.negotiatesFormat")
    public var negotiatesFormat: Bool {
        get { responses.negotiatesFormat }
        set { responses.negotiatesFormat = newValue }
    }

    @available(*, deprecated, renamed: "responses.negotiatesAVIF")
    public var negotiatesAVIF: Bool {
        get { responses.negotiatesAVIF }
        set { responses.negotiatesAVIF = newValue }
    }

    @available(*, deprecated, renamed: "responses.cacheTTL")
    public var cacheTTL: Int {
        get { responses.cacheTTL }
        set { responses.cacheTTL = newValue }
    }

    @available(*, deprecated, renamed: "responses.errorCacheTTL")
    public var errorCacheTTL: Int {
        get { responses.errorCacheTTL }
        set { responses.errorCacheTTL = newValue }
    }

    @available(*, deprecated, renamed: "instrumentation.metricsFactory")
    public var metricsFactory: any MetricsFactory {
        get { instrumentation.metricsFactory }
        set { instrumentation.metricsFactory = newValue }
    }

    /// The flat initializer of the first releases.
    @available(*, deprecated, message: "use init(signing:sources:limits:timeouts:caches:concurrency:processing:responses:instrumentation:accessLogger:)")
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
        self.init(signing: Signing(keyPairs: keyPairs, signatureSize: signatureSize, allowsUnsigned: allowsUnsigned),
                  sources: Sources(policy: sourcePolicy, maxRedirects: maxRedirects),
                  limits: Limits(maxSourceBytes: maxSourceBytes, maxSourcePixels: maxSourcePixels,
                                 maxOutputSide: maxOutputSide, maxOutputPixels: maxOutputPixels),
                  timeouts: Timeouts(download: downloadTimeout, downloadIdle: downloadIdleTimeout,
                                     processing: processingTimeout),
                  caches: Caches(directory: cacheDirectory, memoryBytes: memoryCacheBytes, diskBytes: maxDiskCacheBytes,
                                 shared: sharedCache),
                  concurrency: Concurrency(workers: workers, queueSize: queueSize, retryAfterSeconds: retryAfterSeconds),
                  processing: Processing(presets: presets, defaultQuality: defaultQuality),
                  responses: Responses(negotiatesFormat: negotiatesFormat, cacheTTL: cacheTTL,
                                       errorCacheTTL: errorCacheTTL))
    }
}
