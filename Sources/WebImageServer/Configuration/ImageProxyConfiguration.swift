import Foundation
import Logging
import WebImage

/// Everything an ``ImageProxy`` is set up with, in sections as a request meets them: signing, sources, limits,
/// timeouts, caches, concurrency, processing and responses. Every property's documentation gives its default,
/// which is also what `webimage serve` starts with; each `serve` flag sets exactly one property.
///
/// The defaults are stricter than imgproxy's: signatures required, private networks unreachable, finite
/// limits everywhere.
public struct ImageProxyConfiguration: Sendable {
    /// Which URLs are accepted. Default ``Signing/init(keyPairs:signatureSize:allowsUnsigned:)``: none.
    public var signing: Signing
    /// Where sources may come from and how they are fetched. Default ``Sources/init(policy:maxRedirects:additionalTrustRootFiles:)``.
    public var sources: Sources
    /// Bounds on sources and results. Default ``Limits/init(maxSourceBytes:maxSourcePixels:maxOutputSide:maxOutputPixels:)``.
    public var limits: Limits
    /// How long a request may take. Default ``Timeouts/init(download:downloadIdle:processing:)``.
    public var timeouts: Timeouts
    /// The memory, disk and shared tiers. Default ``Caches/init(directory:memoryBytes:diskBytes:shared:)``:
    /// 64 MiB of memory only.
    public var caches: Caches
    /// Work at once and waiting. Default ``Concurrency/init(workers:queueSize:retryAfterSeconds:)``.
    public var concurrency: Concurrency
    /// Presets, quality and coders. Default ``Processing/init(presets:defaultQuality:coders:)``.
    public var processing: Processing
    /// `/info`'s presets, presets-only mode and allowed options. Default ``Info/init(presets:onlyPresets:allowedOptions:)``.
    public var info = Info()
    /// Formats and cache headers of the answers. Default ``Responses/init(negotiatesFormat:negotiatesAVIF:cacheTTL:errorCacheTTL:)``.
    public var responses: Responses
    /// Where the service's metrics (``ImageProxyMetrics``, and its downloader's ``WebImageMetrics``) are made
    /// and what it logs with. Default `Instrumentation(label: "SwiftWebImage.ImageProxy")`, whose factory is
    /// `MetricsSystem.factory` as it is when the configuration is made: bootstrap swift-metrics first.
    public var instrumentation: Instrumentation
    /// The access log: one `info` line per request (method, redacted path, status, bytes, duration, cache
    /// outcome as metadata; `webimage serve` labels it `SwiftWebImage.serve.access`). Default nil: none.
    public var accessLogger: Logger?

    /// A configuration with every section's defaults unless given.
    public init(signing: Signing = Signing(), sources: Sources = Sources(), limits: Limits = Limits(),
                timeouts: Timeouts = Timeouts(), caches: Caches = Caches(), concurrency: Concurrency = Concurrency(),
                processing: Processing = Processing(), responses: Responses = Responses(),
                instrumentation: Instrumentation = Instrumentation(label: "SwiftWebImage.ImageProxy"),
                accessLogger: Logger? = nil) {
        self.signing = signing
        self.sources = sources
        self.limits = limits
        self.timeouts = timeouts
        self.caches = caches
        self.concurrency = concurrency
        self.processing = processing
        self.responses = responses
        self.instrumentation = instrumentation
        self.accessLogger = accessLogger
    }
}
