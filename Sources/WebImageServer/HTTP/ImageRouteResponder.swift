import Hummingbird

/// The service's router, with image paths answered without its trie. The trie walks a path by characters,
/// component by component, and an image path is long (about 150 bytes, where the bare handler's is 10): a tenth of
/// a warm hit's CPU. A `GET` or `HEAD` whose first segment is ASCII, not empty and none of `health`, `ready` and
/// `info` resolves to the `**` route there too, so it is answered as that route with its endpoint path (the
/// metrics' `http_route`) and through the same middleware; every other request goes to the router.
struct ImageRouteResponder: HTTPResponder {
    typealias Context = ImageProxyRequestContext

    let router: RouterResponder<Context>
    let proxy: ImageProxy
    /// The router's middleware, when it has it.
    let metrics: RequestMetricsMiddleware<Context>?

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head, Self.isImagePath(request.uri.path) else {
            return try await router.respond(to: request, context: context)
        }
        context.coreContext.endpointPath.value = Self.endpointPath
        guard let metrics else { return await proxy.imageAnswer(request, context: context) }
        return try await metrics.handle(request, context: context) { request, context in
            await proxy.imageAnswer(request, context: context)
        }
    }

    private static let endpointPath = ImageProxy.imageRoute.description

    /// Whether the router would resolve `path` to the `**` route (its other routes being `/`, `/health`, `/ready`
    /// and `/info/**`).
    static func isImagePath(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return false }
        let rest = bytes.dropFirst()
        let segment = rest[..<(rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)]
        guard !segment.isEmpty, segment.allSatisfy({ $0 < 0x80 }) else { return false }
        return !["health", "ready", "info"].contains { segment.elementsEqual($0.utf8) }
    }
}
