import Dispatch
import Metrics
import Tracing

/// The service's metrics (``ImageProxyMetrics``), made once with the proxy from its factory.
final class ProxyInstruments: Sendable {
    typealias Snapshot = ProxyStatistics.Snapshot

    let requestsInFlight: Meter
    let queueDepth: Meter
    private let memoryHits: Counter
    private let diskHits: Counter
    private let misses: Counter
    private let coalesced: Counter
    private let encodes: Counter
    private let sourceDownloads: Counter
    private let sourceCacheHits: Counter
    private let sourcesNotModified: Counter
    private let staleSourcesServed: Counter
    private let sourceStoresSkipped: Counter
    private let rejected: Counter
    private let corruptDisk: Counter
    private let corruptShared: Counter
    private let corruptStore: Counter
    private let stages: [ImageProxyMetrics.Stage: CoreMetrics.Timer]
    /// False with swift-metrics' no-op factory: then no stage reads the clock.
    private let timesStages: Bool
    /// The tracer bootstrapped when the proxy was made (nil: the no-op one).
    let tracing = ProxyTracing()

    init(factory: any MetricsFactory) {
        typealias M = ImageProxyMetrics
        requestsInFlight = Meter(label: M.requestsInFlight, factory: factory)
        queueDepth = Meter(label: M.queueDepth, factory: factory)
        memoryHits = Counter(label: M.resultCacheHits, dimensions: [(M.Dimension.tier, "memory")], factory: factory)
        diskHits = Counter(label: M.resultCacheHits, dimensions: [(M.Dimension.tier, "disk")], factory: factory)
        misses = Counter(label: M.resultCacheMisses, factory: factory)
        coalesced = Counter(label: M.coalesced, factory: factory)
        encodes = Counter(label: M.encodes, factory: factory)
        sourceDownloads = Counter(label: M.sourceDownloads, factory: factory)
        sourceCacheHits = Counter(label: M.sourceCacheHits, factory: factory)
        sourcesNotModified = Counter(label: M.sourcesNotModified, factory: factory)
        staleSourcesServed = Counter(label: M.staleSourcesServed, factory: factory)
        sourceStoresSkipped = Counter(label: M.sourceStoresSkipped, factory: factory)
        rejected = Counter(label: M.rejected, factory: factory)
        corruptDisk = Counter(label: M.corruptCacheValues, dimensions: [(M.Dimension.tier, "disk")], factory: factory)
        corruptShared = Counter(label: M.corruptCacheValues, dimensions: [(M.Dimension.tier, "shared")], factory: factory)
        corruptStore = Counter(label: M.corruptCacheValues, dimensions: [(M.Dimension.tier, "s3")], factory: factory)
        var stages: [M.Stage: CoreMetrics.Timer] = [:]
        for stage in M.Stage.allCases {
            stages[stage] = CoreMetrics.Timer(label: M.stageDuration, dimensions: [(M.Dimension.stage, stage.rawValue)],
                                              factory: factory)
        }
        self.stages = stages
        timesStages = !(factory is NOOPMetricsHandler)
    }

    /// The metric of a ``ProxyStatistics`` counter, and the cache outcome it gives the current request.
    func count(_ counter: WritableKeyPath<Snapshot, Int>, by amount: Int) {
        let (metric, outcome): (Counter?, CacheOutcome?) = switch counter {
        case \.memoryHits: (memoryHits, .memory)
        case \.diskHits: (diskHits, .disk)
        case \.misses: (misses, .miss)
        case \.coalesced: (coalesced, .coalesced)
        case \.encodes: (encodes, nil)
        case \.sourceDownloads: (sourceDownloads, nil)
        case \.sourceCacheHits: (sourceCacheHits, nil)
        case \.sourcesNotModified: (sourcesNotModified, nil)
        case \.staleSourcesServed: (staleSourcesServed, nil)
        case \.sourceStoresSkipped: (sourceStoresSkipped, nil)
        case \.rejected: (rejected, nil)
        case \.corruptDiskValues: (corruptDisk, nil)
        case \.corruptSharedValues: (corruptShared, nil)
        case \.corruptStoreValues: (corruptStore, nil)
        default: (nil, nil)
        }
        metric?.increment(by: Int64(amount))
        if let outcome { RequestTrace.current?.note(outcome) }
    }

    /// The start of a stage: the time now, or nil when stages are neither timed nor traced.
    func startStage() -> UInt64? {
        timesStages || RequestTrace.current != nil ? DispatchTime.now().uptimeNanoseconds : nil
    }

    /// Records `stage` as lasting from `start` (from ``startStage()``) until now, in its metric and in the
    /// current request's trace.
    func endStage(_ stage: ImageProxyMetrics.Stage, since start: UInt64?) {
        guard let start else { return }
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
        if timesStages { stages[stage]?.recordNanoseconds(Int64(nanoseconds)) }
        RequestTrace.current?.add(RequestStage(stage), nanoseconds: nanoseconds)
    }

    /// Runs `body` as `stage`: timed when it returns, inside the stage's span (`body` describes it when it
    /// records; see ``ImageProxySpans``).
    func time<Value, Failure: Error>(_ stage: ImageProxyMetrics.Stage, kind: SpanKind = .internal,
                                     _ body: (any Span) throws(Failure) -> Value) throws(Failure) -> Value {
        try tracing.run(ImageProxySpans.stage(stage), kind: kind) { span throws(Failure) in
            let start = startStage()
            let value = try body(span)
            endStage(stage, since: start)
            return value
        }
    }

    /// ``time(_:kind:_:)`` for asynchronous work (the download).
    func time<Value, Failure: Error>(_ stage: ImageProxyMetrics.Stage, named name: String, kind: SpanKind,
                                     isolation: isolated (any Actor)? = #isolation,
                                     _ body: (any Span) async throws(Failure) -> Value) async throws(Failure) -> Value {
        try await tracing.run(name, kind: kind, isolation: isolation) { span async throws(Failure) in
            let start = startStage()
            let value = try await body(span)
            endStage(stage, since: start)
            return value
        }
    }
}
