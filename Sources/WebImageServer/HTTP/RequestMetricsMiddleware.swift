import Dispatch
import Hummingbird
import Metrics

/// Hummingbird's request metrics under its own labels (`http.server.active_requests`, `hb.requests`,
/// `http.server.request.duration`, `hb.request.errors`), recorded when the response is released rather than
/// after its body was written: Hummingbird's `MetricsMiddleware` leaves a request active forever when the
/// client resets the connection before the answer is written (the body writer never runs), so the gauge only
/// climbed under hostile clients. A request counts once whichever way it ends.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord(method: request.method)
        do {
            var response = try await next(request, context)
            record.finish(route: context.endpointPath ?? "Unknown", status: response.status)
            let body = response.body
            // The record lives as long as the body: written, failed or dropped unwritten, its end is counted.
            response.body = ResponseBody(contentLength: body.contentLength) { [record] writer in
                _ = record
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record.finish(route: context.endpointPath ?? "NotFound", status: status, failed: true)
            throw error
        }
    }
}

/// One request in flight: counted active from its creation until it is released.
private final class RequestRecord: Sendable {
    private let method: HTTPRequest.Method
    private let start = DispatchTime.now().uptimeNanoseconds
    private let active: Meter

    init(method: HTTPRequest.Method) {
        self.method = method
        active = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.description)])
        active.increment()
    }

    /// Counts the request and its duration so far under `route` and `status`.
    func finish(route: String, status: HTTPResponse.Status, failed: Bool = false) {
        let dimensions = [("http.route", route), ("http.request.method", method.description),
                          ("http.response.status_code", status.code.description)]
        Counter(label: "hb.requests", dimensions: dimensions).increment()
        Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            .recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        if failed {
            Counter(label: "hb.request.errors", dimensions: [("http.route", route), ("http.request.method", method.description),
                                                             ("error.type", status.code.description)]).increment()
        }
    }

    deinit {
        active.decrement()
    }
}
