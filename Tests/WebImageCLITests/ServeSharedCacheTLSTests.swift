import Foundation
import RedisTestSupport
import Testing
import TestSupport
import WebImage
import WebImageRedis

/// `webimage serve` with a `rediss://` shared cache and an ACL user, as managed Redis services give them: results
/// shared over TLS, and a misconfigured one costing one log line, never a failed request nor the password shown.
@Suite(.serialized) struct ServeSharedCacheTLSTests {
    static let password = "Zq7/serve:pw@x%"
    static let escapedPassword = "Zq7%2Fserve%3Apw%40x%25"
    static let aclUser = ["--user", "default", "off", "--user", "alice", "on", ">\(password)", "~*", "&*", "+@all"]

    static func origin() async throws -> TestHTTPServer {
        let origin = try await TestHTTPServer.start()
        let pixels = PixelBuffer(width: 8, height: 8) { out in for i in out.indices { out[i] = 200 } }
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")],
                                            body: try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg,
                                                                                  options: ImageEncodeOptions())))
        return origin
    }

    static func imagePath(_ origin: TestHTTPServer) -> String {
        "/_/w:4/plain/" + (origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// The result and its source land in a TLS Redis the service reaches with the CA file and the user's password.
    @Test func aTLSRedisWithAUserStoresWhatIsServed() async throws {
        let certificates = try await TestCertificates.shared()
        let redis = try await RedisServerProcess.start(tls: .valid(certificates), arguments: Self.aclUser)
        defer { redis.stop() }
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        let url = "rediss://alice:\(Self.escapedPassword)@localhost:\(redis.port)"
        let serve = try await ServeProcess.start(["--shared-cache-ca", certificates.caFile,
                                                  "--shared-cache-deadline-ms", "2000"],
                                                 environment: ["WEBIMAGE_SHARED_CACHE": url])
        defer { _ = serve.stop() }
        #expect(try RawSocket(port: serve.port).request(Self.imagePath(origin)).hasPrefix("HTTP/1.1 200"))
        let client = RedisClient(endpoint: try #require(RedisEndpoint(url: url)),
                                 configuration: .init(deadline: .seconds(5), tls: RedisTLS(trustRoots: .file(certificates.caFile))))
        // The result and the source, written in the background.
        var keys = 0
        for _ in 0..<100 where keys < 2 {
            if case .integer(let count) = try await client.command(["DBSIZE"]) { keys = count }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(keys == 2)
        #expect(try await client.command(["KEYS", "swi:r:*"]) != .array([]))
        await client.close()
        #expect(serve.stop() == 0)
        #expect(!serve.stderr.contains("shared cache"), "\(serve.stderr)")
    }

    /// A server whose certificate the CA given did not sign: images answer 200, the tier stops with one warning
    /// naming the cause, and the password is on no line of the log, the metrics or the operator page.
    @Test func aWrongCAIsOneLineAndRequestsSucceed() async throws {
        let certificates = try await TestCertificates.shared()
        let redis = try await RedisServerProcess.start(tls: .valid(certificates), arguments: Self.aclUser)
        defer { redis.stop() }
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        let serve = try await ServeProcess.start([
            "--shared-cache", "rediss://alice:\(Self.escapedPassword)@localhost:\(redis.port)",
            "--shared-cache-ca", certificates.otherCAFile, "--shared-cache-deadline-ms", "1000"])
        defer { _ = serve.stop() }
        var metrics = ""
        for _ in 0..<20 where !metrics.contains("swiftwebimage_shared_cache_available 0") {
            let start = ContinuousClock.now
            #expect(try RawSocket(port: serve.port).request(Self.imagePath(origin)).hasPrefix("HTTP/1.1 200"))
            // One lookup waits at most one deadline; the answer needs no more than that and some processing.
            #expect(ContinuousClock.now - start < .seconds(3))
            metrics = try serve.metricsText()
        }
        #expect(metrics.contains("swiftwebimage_shared_cache_available 0"))
        for _ in 0..<5 { _ = try RawSocket(port: serve.port).request(Self.imagePath(origin)) }
        let page = try Self.get("/", port: serve.metricsPort) + Self.get("/operator/stats", port: serve.metricsPort)
        #expect(serve.stop() == 0)
        let lines = serve.stderr.split(separator: "\n").filter { $0.contains("shared cache") }
        #expect(lines.count == 1, "\(serve.stderr)")
        #expect(lines.first?.contains("shared cache unavailable") == true
                    && lines.first?.contains("certificate was refused") == true
                    && lines.first?.contains("rediss://localhost:\(redis.port)/0") == true, "\(lines)")
        for (name, text) in [("stderr", serve.stderr), ("metrics", metrics), ("operator page", page)] {
            #expect(!text.contains(Self.password) && !text.contains(Self.escapedPassword), "\(name) shows the password")
        }
    }

    static func get(_ path: String, port: Int) throws -> String {
        let socket = try RawSocket(port: port)
        try socket.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return socket.readToEnd()
    }
}
