import AsyncHTTPClient
import Foundation
import TestSupport
import WebImage
import WebImageServer

// Child process of `SSRFNamespaceTests`: a loopback origin and the image service with the default (strict)
// source policy, served over HTTP; sends a signed request for each IPv6 form that embeds 127.0.0.1 (the
// origin's address) and prints `form NAME status CODE origin COUNT`, then a control through a second service
// that allows private sources (`control status CODE`), then `done`. The parent runs it in a network
// namespace that has nothing but loopback, so even a policy that let a form through could reach nothing
// past this machine.
//
// Usage: SSRFNamespaceChild

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let origin = try await TestHTTPServer.start()
let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 8, height: 8) { _ in }), as: .jpeg,
                                           options: ImageEncodeOptions())
origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
origin.route("/control.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
let pair = URLSigner.KeyPair(keyHex: "736563726574", saltHex: "68656C6C6F")!
let client = HTTPClient.shared

/// Serves `policy` on a free loopback port while `body` runs.
func withService(_ policy: SourcePolicy, _ body: (Int) async throws -> Void) async throws {
    let configuration = ImageProxyConfiguration(signing: .init(keyPairs: [pair]), sources: .init(policy: policy),
                                                concurrency: .init(workers: 1))
    let proxy = ImageProxy(configuration: configuration)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let server = ImageProxyServer(proxy: proxy, host: "127.0.0.1", port: 0, signals: []) { _, port in
        continuation.yield(port)
    }
    let running = Task { try await server.run() }
    var iterator = ports.makeAsyncIterator()
    if let port = await iterator.next() { try await body(port) }
    await server.triggerGracefulShutdown()
    _ = await running.result
}

/// The status of a signed request for `source`.
func status(port: Int, source: String) async throws -> Int {
    let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
    let path = URLSigner(keyPairs: [pair]).sign("/w:4/plain/" + encoded)
    let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
    _ = try await response.body.collect(upTo: 1 << 20)
    return Int(response.status.code)
}

let forms = [
    ("6to4", "[2002:7f00:1::]"), ("6to4-host", "[2002:7f00:1:0:0:0:7f00:1]"),
    ("nat64-local-use", "[64:ff9b:1::7f00:1]"), ("nat64", "[64:ff9b::7f00:1]"),
    ("teredo-client", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"), ("mapped", "[::ffff:127.0.0.1]"),
    ("compatible", "[::127.0.0.1]"), ("isatap", "[2600::5efe:7f00:1]"), ("isatap-link-local", "[fe80::5efe:7f00:1]"),
]
try await withService(SourcePolicy()) { port in
    for (name, host) in forms {
        let code = try await status(port: port, source: "http://\(host):\(origin.port)/a.jpg")
        say("form \(name) status \(code) origin \(origin.requestCount(for: "/a.jpg"))")
    }
}
// The same origin is reachable in this namespace: the refusals above are the policy's, not the network's.
try await withService(SourcePolicy(allowsPrivateAddresses: true)) { port in
    say("control status \(try await status(port: port, source: origin.url("/control.jpg").absoluteString))")
}
try await origin.shutdown()
say("done")
