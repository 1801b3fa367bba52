import Foundation
import RedisTestSupport
import Testing
import TestSupport
import WebImage

/// `webimage serve` as operators run it, against clients that misbehave: a source URL that carries a line
/// break cannot forge a line on stderr, an HTTP/1.1 request without `Host` is answered 400 (RFC 9112 §3.2),
/// and clients that reset their connections before reading leave no request counted as active.
@Suite struct ServeHostileClientTests {
    /// Source URLs with line breaks (the downloader logs them) and a Redis whose error text has one (the shared
    /// tier logs its failed writes): stderr keeps one line per statement.
    @Test func lineBreaksFromSourcesNeverStartALineOfTheLog() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30) { _ in }),
                                                   as: .jpeg, options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let forged = "FORGED-LOG-LINE level=critical the service was compromised"
        let redis = try await FakeRedisServer.start(reply: Array("-ERR boom\n\(forged)\r\n".utf8))
        defer { Task { await redis.stop() } }
        let serve = try await ServeProcess.start(["--log-level", "debug",
                                                  "--shared-cache", "redis://127.0.0.1:\(redis.endpoint.port)"])
        let sources = ["http://127.0.0.1:\(origin.port)/missing.jpg\n\(forged)",
                       "http://127.0.0.1:\(origin.port)/missing.jpg?a=\r\n\(forged)",
                       "http://127.0.0.1:\(origin.port)/missing.jpg#\u{2028}\(forged)"]
        for source in sources {
            // Plain form, escaped once: the service decodes the line break into the source.
            let plain = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            _ = try? RawSocket(port: serve.port).request("/_/w:20/plain/\(plain)")
            // Base64 form: the line break is in the decoded bytes.
            let encoded = Data(source.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            _ = try? RawSocket(port: serve.port).request("/_/w:20/\(encoded)")
        }
        let image = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        #expect(try RawSocket(port: serve.port).request("/_/w:20/plain/\(image)").hasPrefix("HTTP/1.1 200"))
        #expect(await eventually { serve.stderr.contains("shared cache write failed") })
        #expect(serve.stop() == 0)
        let lines = serve.stderr.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "\(serve.stderr)")
        #expect(lines.contains { $0.contains("shared cache write failed") && $0.contains("boom\\n" + forged) },
                "the Redis error is on its line, escaped: \(serve.stderr)")
        #expect(serve.stderr.contains("missing.jpg"), "the sources were logged: \(serve.stderr)")
    }

    @Test func http11WithoutOneHostIsABadRequest() async throws {
        let serve = try await ServeProcess.start([])
        defer { _ = serve.stop() }
        /// The status of the first answer to `request`, and everything sent until the connection closed.
        func answer(_ request: String, port: Int? = nil) throws -> (status: Int?, text: String) {
            let socket = try RawSocket(port: port ?? serve.port)
            try socket.send(request)
            let text = socket.readToEnd()
            return (text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }, text)
        }
        for port in [serve.port, serve.metricsPort] {
            let path = port == serve.port ? "/health" : "/metrics"
            #expect(try answer("GET \(path) HTTP/1.1\r\n\r\n", port: port).status == 400)
            #expect(try answer("GET \(path) HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", port: port).status == 400)
            #expect(try answer("GET \(path) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", port: port).status == 200)
            // HTTP/1.0 had no Host requirement.
            #expect(try answer("GET \(path) HTTP/1.0\r\nConnection: close\r\n\r\n", port: port).status == 200)
        }
        // One answer, then the connection closes: a request pipelined behind the refused one is not served.
        let refused = try answer("GET /health HTTP/1.1\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(refused.status == 400 && !refused.text.contains("200 OK"), "\(refused.text)")
    }

    @Test func clientsThatResetBeforeReadingLeaveNoActiveRequest() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30) { _ in }),
                                                   as: .jpeg, options: ImageEncodeOptions())
        let clients = 24
        for index in 0..<clients {
            origin.route("/slow\(index).jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg,
                                                          delay: .milliseconds(400)))
        }
        // A worker each, so every request is under way at once when its client resets.
        let serve = try await ServeProcess.start(["--workers", "\(clients)", "--queue", "64"])
        defer { _ = serve.stop() }
        var sockets: [RawSocket] = []
        for index in 0..<clients {
            let source = origin.url("/slow\(index).jpg").absoluteString
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let socket = try RawSocket(port: serve.port)
            try socket.send("GET /_/w:20/plain/\(source) HTTP/1.1\r\nHost: proxy\r\n\r\n")
            sockets.append(socket)
        }
        // Every request is being answered (its source asked for) before the clients reset.
        #expect(await eventually { (0..<clients).allSatisfy { origin.requestCount(for: "/slow\($0).jpg") == 1 } })
        for socket in sockets { socket.reset() }
        var text = ""
        let settled = await eventually(timeout: 60) {
            text = (try? serve.metricsText()) ?? ""
            return Self.value(of: "http_server_active_requests{http_request_method=\"GET\"}", in: text) == 0
                && Self.value(of: "swiftwebimage_serve_requests_in_flight", in: text) == 0
        }
        #expect(settled, "\(text.split(separator: "\n").filter { $0.contains("active") || $0.contains("flight") })")
        // The server still answers.
        let health = try RawSocket(port: serve.port)
        try health.send("GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(health.readToEnd().hasPrefix("HTTP/1.1 200"))
    }

    /// The number after `series` in a Prometheus text exposition.
    static func value(of series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.dropFirst(series.count + 1)) }
    }
}

extension RawSocket {
    /// Sends a GET for `path` with a Host header and reads the whole answer.
    func request(_ path: String) throws -> String {
        try send("GET \(path) HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n")
        return readToEnd()
    }
}
