import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ImageProxy {
    /// Adds the service's routes to a Hummingbird router: `GET`/`HEAD` on `/health`, `/ready`,
    /// `/info/<signature>/<options>/<source>` and every other path (`/` too) as an image URL.
    ///
    /// With ``ImageProxyRequestContext`` a client that disconnects stops the work it alone was waiting for.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/health", method: method) { [self] request, _ in
                await answer(request, route: .operational) { _ in .plain(200, "ok\n") }
            }
            router.on("/ready", method: method) { [self] request, _ in
                let ready = isReady
                return await answer(request, route: .operational) { _ in
                    .plain(ready ? 200 : 503, ready ? "ready\n" : "not ready\n")
                }
            }
            router.on("/info/**", method: method) { [self] request, context in
                let channel = Self.channel(context)
                return await answer(request, route: .info) { proxyRequest in
                    await DisconnectWatch.run(on: channel) { await self.info(proxyRequest) }
                }
            }
            router.on("/", method: method) { [self] request, _ in
                await answer(request, route: .image) { await self.image($0) }
            }
            router.on(Self.imageRoute, method: method) { [self] request, context in
                await imageAnswer(request, context: context)
            }
        }
    }

    /// The route of every other path: an image URL.
    static let imageRoute: RouterPath = "**"

    /// The answer of ``imageRoute``.
    func imageAnswer(_ request: Request, context: some RequestContext) async -> Response {
        let channel = Self.channel(context)
        return await answer(request, route: .image) { proxyRequest in
            // Watching the connection costs a task and two trips to the event loop, most of a memory
            // hit's cost: only the work after a miss is watched.
            await self.image(proxyRequest) { work in await DisconnectWatch.run(on: channel, work) }
        }
    }

    /// `body`'s answer to `request`, through the access log and in-flight count (and the request span, for
    /// image and info routes), as a Hummingbird response.
    private func answer(_ request: Request, route: AccessLog.Route,
                        _ body: @escaping @Sendable (ProxyRequest) async -> ProxyResponse) async -> Response {
        let proxyRequest = Self.proxyRequest(request)
        // imgproxy's IMGPROXY_SECRET: refused before anything else is looked at, as its middleware does.
        let authorized = route == .operational || secret?.admits(request.headers[.authorization]) ?? true
        let observed: @Sendable () async -> ProxyResponse = { [self] in
            await accessLog.observe(proxyRequest, route: route) {
                guard authorized else { return errorResponse(.forbidden("the Authorization header lacks this service's secret")) }
                return await body(proxyRequest)
            }
        }
        let answer = route == .operational ? await observed()
            : await RequestSpan.run(proxyRequest, headers: request.headers, route: route,
                                    tracing: statistics.instruments.tracing, observed)
        return Self.response(answer, isHead: proxyRequest.isHead)
    }

    private static func channel(_ context: some RequestContext) -> (any Channel)? {
        (context as? ImageProxyRequestContext)?.channel
    }

    static func proxyRequest(_ request: Request) -> ProxyRequest {
        ProxyRequest(isHead: request.method == .head, target: request.head.path ?? "/",
                     accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                     ifModifiedSince: request.headers[.ifModifiedSince])
    }

    /// A Hummingbird response with exactly these headers (a `HEAD` answer keeps the `Content-Length` of the
    /// body it leaves out).
    static func response(_ response: ProxyResponse, isHead: Bool) -> Response {
        var fields: HTTPFields
        switch response.storedHeaders {
        case .fields(let built):
            fields = built
        case .pairs(let pairs):
            fields = HTTPFields()
            for (name, value) in pairs {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            if fields[.contentLength] == nil, response.status != 304 { fields[.contentLength] = String(response.body.count) }
        }
        let body = isHead || response.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: response.body))
        return Response(status: HTTPResponse.Status(code: response.status), headers: fields, body: body)
    }
}
