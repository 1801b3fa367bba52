import HTTPTypes
import Tracing

/// The server span of an image or info request (``ImageProxySpans``): a child of the client's span when the
/// request carries its context and no span is current yet (an app's own tracing middleware may have made one:
/// then ours is its child), named by method and route template, never by the URL (its signature is redacted
/// in `url.path` as in the access log).
enum RequestSpan {
    static func run(_ request: ProxyRequest, headers: HTTPFields, route: AccessLog.Route, tracing: ProxyTracing,
                    _ answer: () async -> ProxyResponse) async -> ProxyResponse {
        guard let tracer = tracing.tracer else { return await answer() }
        let method = request.isHead ? "HEAD" : "GET"
        let template = route == .info ? ImageProxySpans.infoRoute : ImageProxySpans.imageRoute
        var context = InstrumentationContext.current ?? .topLevel
        if InstrumentationContext.current == nil {
            tracer.extract(headers, into: &context, using: HTTPFieldsExtractor())
        }
        let span = tracer.startSpan(ImageProxySpans.request(method: method, route: template), context: context,
                                    ofKind: .server)
        defer { span.end() }
        if span.isRecording {
            span.attributes["http.request.method"] = method
            span.attributes["http.route"] = template
            span.attributes["url.path"] = AccessLog.redacted(request.path, route: route)
        }
        let response = await InstrumentationContext.withValue(span.context) { await answer() }
        if span.isRecording {
            span.attributes["http.response.status_code"] = response.status
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        return response
    }
}
