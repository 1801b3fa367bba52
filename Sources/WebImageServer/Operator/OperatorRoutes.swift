import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The operator page's routes on the metrics listener: `GET /` (the page), `GET /operator/stats?since=N` (the
/// snapshot, with the history samples after N), `POST /operator/sign` (the URL builder, JSON in and out); each
/// answers 421 to a `Host` ``OperatorHosts`` does not admit.
struct OperatorRoutes: Sendable {
    let proxy: ImageProxy
    let page: OperatorPage
    let history: OperatorHistory
    /// The image listener (its port is known once it listens).
    let image: ImageListener
    /// The `Host` values answered.
    let hosts: OperatorHosts

    /// The largest form the builder reads.
    static let maxFormBytes = 16 * 1024

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { [hosts] request, _ in
            guard hosts.admits(request.head.authority) else { return Self.misdirected }
            return Response(status: .ok, headers: Self.pageHeaders,
                            body: ResponseBody(byteBuffer: ByteBuffer(string: OperatorPageHTML.page)))
        }
        router.get("/operator/stats") { [self] request, _ in
            guard hosts.admits(request.head.authority) else { return Self.misdirected }
            let since = request.uri.queryParameters.get("since", as: Int.self) ?? 0
            let snapshot = OperatorSnapshot(proxy: proxy, page: page, history: history, after: since, image: image)
            return Self.json(snapshot)
        }
        router.post("/operator/sign") { [self] request, _ in
            guard hosts.admits(request.head.authority) else { return Self.misdirected }
            // A JSON body cannot be sent across origins without a preflight this listener never answers, and a
            // page of another origin that names itself is refused: only this page asks for signatures.
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return Self.failure(.badRequest("send the form as application/json"))
            }
            if let origin = request.headers[.origin], origin != "http://" + (request.head.authority ?? "") {
                return Self.failure(.forbidden("the builder answers its own page only"))
            }
            var request = request
            let body = try await request.collectBody(upTo: Self.maxFormBytes)
            guard let form = try? JSONDecoder().decode(OperatorURLBuilder.Form.self, from: Data(body.readableBytesView)) else {
                return Self.failure(.badRequest("the form is not the builder's JSON"))
            }
            do throws(ProxyError) {
                return Self.json(try OperatorURLBuilder(proxy: proxy, page: page).build(form))
            } catch {
                return Self.failure(error)
            }
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 421 Misdirected Request: this listener does not answer for that name.
    private static var misdirected: Response {
        Response(status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: "this listener does not answer for that Host; "
                     + "reach it by its address, localhost or the --operator-base-url host\n")))
    }

    private static func failure(_ error: ProxyError) -> Response {
        json(["error": error.message], status: HTTPResponse.Status(code: error.status))
    }

    /// The page may run only its own script (by hash), fetch only this listener, and show images from anywhere
    /// over http(s): the image service may be on another host or port. Inline styles are allowed: the charts'
    /// legends and the stage bars are drawn with them.
    static let pageHeaders: HTTPFields = {
        func hash(_ text: String) -> String {
            "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
        }
        let policy = "default-src 'none'; script-src \(hash(OperatorPageHTML.script)); "
            + "style-src 'unsafe-inline'; img-src http: https:; connect-src 'self'; "
            + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
        return [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: policy, HTTPField.Name("Referrer-Policy")!: "no-referrer"]
    }()
}
