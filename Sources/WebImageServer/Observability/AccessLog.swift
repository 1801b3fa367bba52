import Foundation
import Logging
import Metrics
import WebImageLogging

/// The access log: one `info` line per request on ``ImageProxyConfiguration/accessLogger``, every field as
/// metadata, and the in-flight meter of image and info requests.
///
/// | Key | Value |
/// |---|---|
/// | `method` | `GET` or `HEAD` |
/// | `path` | the request path without its query, the signature replaced by `***` |
/// | `status` | the status sent |
/// | `bytes` | body bytes sent (0 for `HEAD` and 304) |
/// | `duration_ms` | from routing to the answer being ready, in milliseconds (3 decimals) |
/// | `cache` | ``CacheOutcome``: `memory`, `disk`, `miss`, `coalesced`; `none` when no result was looked up |
struct AccessLog: Sendable {
    /// The label of the logger `webimage serve` writes its access lines to.
    static let label = "SwiftWebImage.serve.access"

    /// Which route answered: where the signature sits in the path.
    enum Route {
        /// `/<signature>/…`
        case image
        /// `/info/<signature>/…`
        case info
        /// `/health`, `/ready`: nothing to redact, not counted in flight.
        case operational
    }

    let logger: Logger?
    let inFlight: Meter
    /// The operator page's record of image and info requests.
    let recent: RecentRequests
    /// The logger's handler when it writes request lines itself (`webimage serve`'s text access log).
    private let lines: AccessLineHandler?

    init(logger: Logger?, inFlight: Meter, recent: RecentRequests) {
        self.logger = logger
        self.inFlight = inFlight
        self.recent = recent
        lines = (logger?.handler as? AccessLineHandler).flatMap { $0.writesRequestsDirectly ? $0 : nil }
    }

    /// Answers `request` with `answer`, counted in flight, recorded for the operator page and logged.
    func observe(_ request: ProxyRequest, route: Route,
                 _ answer: @Sendable () async -> ProxyResponse) async -> ProxyResponse {
        let counted = route != .operational
        let records = counted && recent.isRecording
        if counted { inFlight.increment() }
        if records { recent.started() }
        defer { if counted { inFlight.decrement() } }
        let logs = logger.map { $0.logLevel <= .info } ?? false
        guard records || logs else { return await answer() }
        let trace = RequestTrace()
        let start = ContinuousClock.now
        let response = await RequestTrace.$current.withValue(trace) { await answer() }
        let elapsed = (ContinuousClock.now - start).components
        let redacted = Self.redacted(request.path, route: route)
        if records {
            recent.ended(path: redacted, status: response.status,
                         nanoseconds: UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000),
                         trace: trace)
        }
        guard logs, let logger else { return response }
        let line = AccessLine(method: request.isHead ? "HEAD" : "GET", path: redacted, status: response.status,
                              bytes: request.isHead ? 0 : response.body.count,
                              microseconds: elapsed.seconds * 1_000_000
                                  + (elapsed.attoseconds + 500_000_000_000) / 1_000_000_000_000,
                              cache: trace.cacheOutcome?.rawValue ?? "none")
        if let lines { lines.writeRequest(line) } else { Self.log(line, to: logger) }
        return response
    }

    /// `line` as an `info` record of `logger`, its fields as metadata.
    static func log(_ line: AccessLine, to logger: Logger) {
        logger.info("request", metadata: [
            "method": .string(line.method),
            // Escaped here too, for a library user's own text handler.
            "path": .string(LogText.escaped(line.path)),
            "status": .stringConvertible(line.status),
            "bytes": .stringConvertible(line.bytes),
            "duration_ms": .string(Self.milliseconds(line.microseconds)),
            "cache": .string(line.cache),
        ])
    }

    /// `microseconds` as milliseconds with three decimals (`12.345`), as `%.3f` writes them, without a formatter
    /// (every request writes one).
    static func milliseconds(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `path` with its signature segment replaced by `***`, so a log never hands out working URLs.
    static func redacted(_ path: Substring, route: Route) -> String {
        let index: Int
        switch route {
        case .image: index = 1
        case .info: index = 2
        case .operational: return String(path)
        }
        // The segment after the index-th slash, found on the bytes (a split and join cost a request's worth).
        let bytes = path.utf8
        var start = bytes.startIndex, slashes = 0
        while slashes < index {
            guard let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) else { return String(path) }
            start = bytes.index(after: slash)
            slashes += 1
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        return String(path[..<start]) + "***" + String(path[end...])
    }
}

extension ImageProxy {
    /// The label `webimage serve` gives its access logger (``ImageProxyConfiguration/accessLogger``).
    public static let accessLoggerLabel = AccessLog.label
}
