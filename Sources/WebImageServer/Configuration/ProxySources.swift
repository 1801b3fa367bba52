import Foundation

extension ImageProxyConfiguration {
    /// Where sources may come from and how they are fetched.
    public struct Sources: Sendable {
        /// Which sources may be fetched: schemes, an allowlist of prefixes, private addresses. Default
        /// `SourcePolicy()`: http and https, any prefix, public addresses only.
        public var policy: SourcePolicy
        /// Redirects followed per source, each hop checked like the source itself. Default 5.
        public var maxRedirects: Int
        /// PEM files of certificate authorities trusted for https sources besides the system's (an internal
        /// CA). Host names are still verified against the certificates. Default none: the system's roots only.
        public var additionalTrustRootFiles: [String]
        /// The directory `local:///PATH` sources are read from (imgproxy's `IMGPROXY_LOCAL_FILESYSTEM_ROOT`); only
        /// regular files under it, whatever links say. Default nil: local sources are refused (403).
        public var localRoot: URL?
        /// Where `s3://` sources are read (imgproxy's `IMGPROXY_USE_S3`). Default nil: they are refused (403).
        public var s3: S3?
        /// Whether source requests (http, https and S3) carry the context of their `webimage.download` span, as the
        /// bootstrapped instrument writes it (W3C `traceparent` and `tracestate` with swift-otel), so the origin's
        /// spans join the trace (imgproxy's `IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`). S3 requests are signed
        /// without these headers. Default false, as in imgproxy: an origin learns nothing of the service's traces.
        public var propagatesTraceContext = false

        public init(policy: SourcePolicy = SourcePolicy(), maxRedirects: Int = 5,
                    additionalTrustRootFiles: [String] = []) {
            self.policy = policy
            self.maxRedirects = maxRedirects
            self.additionalTrustRootFiles = additionalTrustRootFiles
        }
    }
}
