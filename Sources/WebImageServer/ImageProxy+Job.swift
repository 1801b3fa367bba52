import Foundation
import Tracing
import WebImage

/// One checked request: what to fetch, what to do, in which format, under which key.
struct ProxyJob: Sendable {
    var source: URL {
        didSet { dispositionPrefix = ProxyResponse.dispositionPrefix(options: options, source: source) }
    }
    /// `watermark_url`'s image, checked as a source is.
    var watermarkSource: URL?
    /// `fallback_image_url`'s image, checked as a source is.
    var fallbackSource: URL?
    var options: ProcessingOptions {
        didSet { dispositionPrefix = ProxyResponse.dispositionPrefix(options: options, source: source) }
    }
    /// imgproxy Pro's chained pipelines after the first, each run on the one before's result, with its
    /// `watermark_url`'s image checked as a source is.
    var chain: [(options: ProcessingOptions, watermarkSource: URL?)]
    var format: FormatChoice
    var key: String
    /// The answer's `Content-Disposition` up to the file's extension (``ProxyResponse/dispositionPrefix(options:source:)``),
    /// made with the job: a checked job is answered many times.
    private(set) var dispositionPrefix: String

    init(source: URL, watermarkSource: URL? = nil, fallbackSource: URL? = nil, options: ProcessingOptions,
         chain: [(options: ProcessingOptions, watermarkSource: URL?)] = [], format: FormatChoice, key: String) {
        self.source = source
        self.watermarkSource = watermarkSource
        self.fallbackSource = fallbackSource
        self.options = options
        self.chain = chain
        self.format = format
        self.key = key
        dispositionPrefix = ProxyResponse.dispositionPrefix(options: options, source: source)
    }

    /// The answer's `Content-Disposition` for a result in `format`: `inline; filename="NAME.EXT"`.
    func contentDisposition(format: ImageFormat) -> String {
        dispositionPrefix + "." + ProxyResponse.escapedFileName(format.fileExtension ?? "bin") + "\""
    }
}

extension ImageProxy {
    /// Parses and checks a request path: signature (403), options (400), expiry (404), source (400/403); a path
    /// checked recently is not parsed again (``CheckedJobs``), only its expiry checked.
    func job(for path: Substring, accept: String?) throws(ProxyError) -> ProxyJob {
        let start = RequestTrace.clock()
        defer { RequestTrace.end(.check, since: start) }
        let key = CheckedJobs.Key(path: String(path), accept: accept)
        if let job = checkedJobs.job(for: key) {
            // The signature's span still marks the check, as passed before.
            statistics.instruments.tracing.run(ImageProxySpans.signature) { span in
                if span.isRecording { span.attributes[ImageProxySpans.Attribute.signatureRemembered] = true }
            }
            try Self.checkExpiry(job.options)
            return job
        }
        let job = try parsedJob(for: path, accept: accept)
        checkedJobs.remember(job, for: key)
        return job
    }

    private static func checkExpiry(_ options: ProcessingOptions) throws(ProxyError) {
        if let expires = options.expires, expires <= Int(Date().timeIntervalSince1970) {
            throw .notFound("the URL expired")
        }
    }

    private func parsedJob(for path: Substring, accept: String?) throws(ProxyError) -> ProxyJob {
        let parsed = try ProxyPath(path, onlyPresets: configuration.processing.onlyPresets)
        try statistics.instruments.tracing.run(ImageProxySpans.signature) { _ throws(ProxyError) in try checkSignature(parsed) }
        var options = baseOptions
        let chained = try parser.pipelines(parsed.optionSegments, first: &options, base: baseOptions)
        try Self.checkExpiry(options)
        let chain = try chained.map { pipeline throws(ProxyError) in
            (options: pipeline, watermarkSource: try pipeline.watermarkImage.url.map { url throws(ProxyError) in
                try checkedSource(url)
            })
        }
        let source = try checkedSource(parsed.source)
        let watermarkSource = try options.watermarkImage.url.map { url throws(ProxyError) in try checkedSource(url) }
        let fallbackSource = try options.fallbackImageURL.map { url throws(ProxyError) in try checkedSource(url) }
        // The last pipeline that names a format names the result's.
        let named = chained.last { $0.format != nil || $0.bestFormat } ?? options
        let bestDefault = configuration.processing.bestFormat.byDefault && named.format == nil
            && parsed.extensionFormat == nil
        let format = named.bestFormat || parsed.extensionIsBest || bestDefault
            ? FormatChoice.best(accept: accept, negotiation: configuration.responses.negotiation,
                                preferred: preferredFormats)
            : FormatChoice(explicit: named.format ?? parsed.extensionFormat, accept: accept,
                                  negotiation: configuration.responses.negotiation, preferred: preferredFormats)
        let key = ResultKey.make(source: source.absoluteString, options: options, format: format,
                                 encoding: processor.encoding, chain: chained)
        return ProxyJob(source: source, watermarkSource: watermarkSource, fallbackSource: fallbackSource,
                        options: options, chain: chain, format: format, key: key)
    }

    /// A source URL (the image's, or a watermark's) checked against the sources' policy, by scheme.
    func checkedSource(_ text: String) throws(ProxyError) -> URL {
        switch text.prefix(while: { $0 != ":" }).lowercased() {
        case "local": try LocalSource.check(text, root: sources.local, policy: configuration.sources.policy)
        case "s3": try S3Object.check(text, store: configuration.sources.s3, policy: configuration.sources.policy)
        default: try configuration.sources.policy.check(text)
        }
    }

    func checkSignature(_ path: ProxyPath) throws(ProxyError) {
        if path.signature == "_" || path.signature == "unsafe" {
            guard configuration.signing.allowsUnsigned else {
                throw .forbidden("unsigned URLs are not accepted; sign the path with your key and salt")
            }
            return
        }
        guard signer.isValid(signature: path.signature, for: path.signedPart) else {
            throw .forbidden("the signature does not match the path")
        }
    }

    /// When the work for a request that arrived at `arrival` must be over (503 past it): the processing timeout
    /// counts from the arrival, queue and download included, as imgproxy's `IMGPROXY_TIMEOUT`.
    func deadline(from arrival: ContinuousClock.Instant) -> ContinuousClock.Instant {
        arrival + configuration.timeouts.processing
    }

    /// The result from disk, or made now (once per key however many wait) by `deadline`; memory was asked first
    /// (``memoryHit(_:job:)``).
    func result(for job: ProxyJob, deadline: ContinuousClock.Instant) async throws(ProxyError) -> ProcessedResult {
        if let hit = await RequestTrace.timing(.cache, { await diskResult(forKey: job.key) }) { return hit }
        statistics.record(\.misses)
        guard !isStoppingNow else { throw .unavailable("the service is shutting down") }
        let outcome = await flights.run(key: job.key, deadline: deadline, timeout: .processingTimeout,
                                        joined: { [statistics] in statistics.record(\.coalesced) }) { shared in
            do throws(ProxyError) {
                return .success(try await self.make(job, until: shared))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private func diskResult(forKey key: String) async -> ProcessedResult? {
        if let hit = await results.diskResult(forKey: key) {
            statistics.record(\.diskHits)
            return hit
        }
        return nil
    }

    /// Makes a result: from the shared tier when another instance made it, else a worker slot (or 429),
    /// the source, then processing on a worker thread (without a second shared-tier wait when the first
    /// lookup failed).
    private func make(_ job: ProxyJob, until deadline: WorkDeadline) async throws(ProxyError) -> ProcessedResult {
        // This request found memory empty, but the flight before this one may have stored the result since:
        // take it rather than make it again (no lookup of its own: no span; it counts as coalesced, having
        // shared another request's result).
        if let stored = results.storedResult(forKey: job.key) {
            statistics.record(\.coalesced)
            return stored
        }
        let shared = await RequestTrace.timing(.cache) { await results.sharedResult(forKey: job.key) }
        if let hit = shared.result { return hit }
        let outcome = await SharedTier.$skipsLookups.withValue(shared.failed) { () async -> Result<ProcessedResult, ProxyError> in
            do throws(ProxyError) {
                return .success(try await self.process(job, until: deadline))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private func process(_ job: ProxyJob, until deadline: WorkDeadline) async throws(ProxyError) -> ProcessedResult {
        let processor = self.processor, statistics = self.statistics, sources = self.sources
        // A watermark's image is fetched (and cached) as a source is, before a worker slot is taken.
        // Each pipeline's watermark image.
        var watermarks: [SourceBytes?] = []
        for url in [job.watermarkSource] + job.chain.map(\.watermarkSource) {
            guard let url else {
                watermarks.append(nil)
                continue
            }
            watermarks.append(try await deadline.bound(timeout: .processingTimeout) { () async throws(ProxyError) in
                try await sources.data(for: url)
            })
        }
        let marks = watermarks
        let result = try await withSource(job.source, until: deadline) { source throws(ProxyError) in
            let made = try processor.process(source, options: job.options, format: job.format,
                                             timing: statistics.instruments, watermark: marks[0],
                                             chain: zip(job.chain.map(\.options), marks.dropFirst()).map { ($0, $1) })
            statistics.record(\.encodes)
            return ProcessedResult(data: made.data, format: made.format)
        }
        await results.store(result, forKey: job.key)
        return result
    }

    /// Runs `body` over the bytes of `source` on a worker thread, holding a worker slot from before the
    /// download until `body` really ends; the queue, the download and `body` all end at `deadline` (503). A
    /// request whose deadline passes while queued starts nothing; past it `body`'s work is cancelled
    /// (``WorkerThreads/run(until:timeout:_:onEnd:)``) and the slot frees within a band of rows.
    func withSource<Value: Sendable>(_ source: URL, until deadline: WorkDeadline,
                                     _ body: @escaping @Sendable (SourceBytes) throws(ProxyError) -> Value)
        async throws(ProxyError) -> Value {
        try await RequestTrace.timing(.queue) { () async throws(ProxyError) in
            try await self.limiter.acquire(until: deadline, timeout: .processingTimeout)
        }
        let data: SourceBytes
        do throws(ProxyError) {
            let sources = self.sources
            data = try await deadline.bound(timeout: .processingTimeout) { () async throws(ProxyError) in
                try await sources.data(for: source)
            }
        } catch {
            limiter.release()
            throw error
        }
        let limiter = self.limiter
        // The worker thread has no task: the spans made there get the request's context from here.
        let context = statistics.instruments.tracing.tracer == nil ? nil : InstrumentationContext.current
        return try await workers.run(until: deadline, timeout: .processingTimeout,
                                     { () throws(ProxyError) -> Value in
                                         guard let context else { return try body(data) }
                                         return try InstrumentationContext.withValue(context) { () -> Result<Value, ProxyError> in
                                             do throws(ProxyError) { return .success(try body(data)) } catch { return .failure(error) }
                                         }.get()
                                     },
                                     onEnd: { limiter.release() })
    }
}
