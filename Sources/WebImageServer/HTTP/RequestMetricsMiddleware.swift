import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Hummingbird's request metrics under its own labels (`http.server.active_requests`, `hb.requests`,
/// `http.server.request.duration`, `hb.request.errors`), recorded when the answer is ready rather than after its
/// body was written: Hummingbird's `MetricsMiddleware` leaves a request active forever when the client resets
/// the connection before the answer is written (the body writer never runs), so the gauge only climbed under
/// hostile clients. A request counts once whichever way it ends. Every body this server answers is already in
/// memory, so nothing of ours runs while it is written: wrapping it to count its release would cost
/// Hummingbird's one-write path for a buffer body (head, body and end as three writes, each a trip to the event
/// loop).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let instruments = RequestInstruments()

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord(method: request.method, instruments: instruments)
        do {
            let response = try await next(request, context)
            record.finish(route: context.endpointPath ?? "Unknown", status: response.status)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record.finish(route: context.endpointPath ?? "NotFound", status: status, failed: true)
            throw error
        }
    }
}

/// One request in flight: counted active from its creation until it is released (when the middleware returns).
private final class RequestRecord: Sendable {
    private let method: String
    private let instruments: RequestInstruments
    private let start = DispatchTime.now().uptimeNanoseconds
    private let active: Meter

    init(method: HTTPRequest.Method, instruments: RequestInstruments) {
        self.method = method.description
        self.instruments = instruments
        active = instruments.active(method: self.method)
        active.increment()
    }

    /// Counts the request and its duration so far under `route` and `status`.
    func finish(route: String, status: HTTPResponse.Status, failed: Bool = false) {
        let handles = instruments.handles(route: route, method: method, status: status.code, failed: failed)
        handles.requests.increment()
        handles.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        handles.errors?.increment()
    }

    deinit {
        active.decrement()
    }
}

/// The metric handles of each label set, made once: a metrics factory validates and escapes the name and labels
/// on every make (Prometheus' took a fifth of a cache hit's CPU). Label sets past ``maxKept`` (methods are
/// any token a client sends) are made each time, as before, rather than kept.
private final class RequestInstruments: Sendable {
    struct Handles {
        let requests: Counter
        let duration: Metrics.Timer
        /// Only for a failed request.
        let errors: Counter?
    }

    private struct Key: Hashable {
        let route: String, method: String, status: Int, failed: Bool
    }

    static let maxKept = 256
    private let kept = Mutex<[Key: Handles]>([:])
    private let meters = Mutex<[String: Meter]>([:])

    func active(method: String) -> Meter {
        if let meter = meters.withLock({ $0[method] }) { return meter }
        let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method)])
        meters.withLock { if $0.count < Self.maxKept { $0[method] = meter } }
        return meter
    }

    func handles(route: String, method: String, status: Int, failed: Bool) -> Handles {
        let key = Key(route: route, method: method, status: status, failed: failed)
        if let handles = kept.withLock({ $0[key] }) { return handles }
        let dimensions = [("http.route", route), ("http.request.method", method),
                          ("http.response.status_code", status.description)]
        let handles = Handles(
            requests: Counter(label: "hb.requests", dimensions: dimensions),
            duration: Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions,
                                    preferredDisplayUnit: .seconds),
            errors: failed ? Counter(label: "hb.request.errors",
                                     dimensions: [("http.route", route), ("http.request.method", method),
                                                  ("error.type", status.description)]) : nil)
        kept.withLock { if $0.count < Self.maxKept { $0[key] = handles } }
        return handles
    }
}
