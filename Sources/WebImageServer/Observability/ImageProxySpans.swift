/// The names and attributes of the spans the image service makes through swift-distributed-tracing.
///
/// The proxy reads the tracer when it is made (bootstrap first; `webimage serve` does with `--tracing`): under
/// swift-distributed-tracing's no-op tracer it makes no span at all; attributes are computed only for spans that
/// record. The
/// request span is a child of the client's span when the request carries W3C `traceparent`/`tracestate`
/// (as the bootstrapped instrument reads them), and source downloads carry the download span's context to the
/// origin (http, https and S3; the S3 request is signed without those headers, which SigV4 allows).
///
/// | Name | Kind | Parent | Attributes |
/// |---|---|---|---|
/// | `GET /{signature}/{options}/{source}`, `GET /info/{signature}/{options}/{source}` (`HEAD` likewise) | server | the client's, if sent | `http.request.method`, `http.route`, `url.path` (signature replaced by `***`, no query), `http.response.status_code`; error status for 5xx |
/// | `webimage.signature` | internal | request | `webimage.signature.remembered` when the path was checked before and not again |
/// | `webimage.result_cache.memory`, `.disk`, `.shared`, `.s3` | internal | request (`shared`, `s3`: the result being made) | `webimage.cache.hit` |
/// | `webimage.source` | internal | the result being made | `webimage.source.from`: `disk`, `shared`, `download`, `revalidation` (a stale copy asked after), `local` |
/// | `webimage.source_cache.disk`, `.shared` | internal | `webimage.source` | `webimage.cache.hit` |
/// | `webimage.download` | client | `webimage.source` | `http.request.method`, `url.full` (scheme, host, port, path: no user, query or fragment), `server.address`, `http.response.status_code`, `http.response.body.size` |
/// | `webimage.decode`, `webimage.process`, `webimage.encode` | internal | the result being made | `webimage.format` (source format for decode, result format for encode), `http.response.body.size` for encode |
/// | Redis command (`GET`, `SET`, …; `PIPELINE` for several) | client | the lookup or write | `db.system.name` = `redis`, `db.operation.name`, `db.operation.batch.size` (pipelines), `server.address`, `server.port`, `db.namespace` |
///
/// A result is made once for every request waiting for it: its spans are children of the request that started it.
/// Shared-tier writes run after the answer, in spans of the request that made the value. `/health` and `/ready`
/// make no span. No span records a signing key, a salt, S3 credentials, a Redis password or a cache key.
public enum ImageProxySpans {
    /// The request span's name: the method and the route template.
    public static func request(method: String, route: String) -> String { "\(method) \(route)" }
    /// The route template of image requests.
    public static let imageRoute = "/{signature}/{options}/{source}"
    /// The route template of `/info` requests.
    public static let infoRoute = "/info/{signature}/{options}/{source}"
    /// Checking the URL's signature.
    public static let signature = "webimage.signature"
    /// Looking the result up in one tier; ``resultCache(_:)`` names it.
    public static func resultCache(_ tier: Tier) -> String { "webimage.result_cache.\(tier.rawValue)" }
    /// Getting the source's bytes, from whichever place has them.
    public static let source = "webimage.source"
    /// Looking the source up in one cache tier (`disk` or `shared`).
    public static func sourceCache(_ tier: Tier) -> String { "webimage.source_cache.\(tier.rawValue)" }
    /// Downloading the source from its origin (http, https, S3).
    public static let download = "webimage.download"
    /// The span of a processing stage (`webimage.decode`, `webimage.process`, `webimage.encode`; the download
    /// stage is ``download``).
    public static func stage(_ stage: ImageProxyMetrics.Stage) -> String { "webimage.\(stage.rawValue)" }

    /// A cache tier (`s3`: the result store).
    public enum Tier: String, Sendable {
        case memory, disk, shared, s3
    }

    /// The service's own attribute names (the others are OpenTelemetry's semantic conventions).
    public enum Attribute {
        /// Bool: the tier had the value.
        public static let cacheHit = "webimage.cache.hit"
        /// Where the source came from: `disk`, `shared`, `download`, `revalidation`, `local`.
        public static let sourceFrom = "webimage.source.from"
        /// The image format of the stage's input (decode) or output (encode).
        public static let format = "webimage.format"
        /// Bool, on the signature span: the path was checked before and remembered (``CheckedJobs``), not
        /// checked again.
        public static let signatureRemembered = "webimage.signature.remembered"
    }
}
