import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import WebImage
import WebImageCLISupport
import WebImageServer

/// `webimage-demo serve`: the service on a free loopback port with a generated key and salt, in front of an
/// in-process origin of sample images; it makes a few signed requests against itself, prints each URL with
/// what came back, and exits (1 when an answer was not the expected one).
enum ServeDemo {
    static func run() async throws {
        // The library's own logs (the 404 step's warning) stay off stdout, where the tour is printed.
        LoggingBootstrap.run(level: .error)
        let origin = try await ServeDemoOrigin.start()
        let pair = URLSigner.KeyPair(keyHex: randomHex(), saltHex: randomHex())!
        // The origin is on 127.0.0.1: trusted by name, so every other private address stays refused.
        var configuration = ImageProxyConfiguration(
            signing: .init(keyPairs: [pair]), sources: .init(policy: SourcePolicy(trustedHosts: ["127.0.0.1"])),
            concurrency: .init(workers: 2))
        // The tour shows an animation resized whole (imgproxy's default, one frame, would make it a still).
        configuration.limits.maxAnimationFrames = 100
        let proxy = ImageProxy(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = ImageProxyServer(proxy: proxy, host: "127.0.0.1", port: 0, drainTimeout: .seconds(5)) { _, port in
            continuation.yield(port)
            continuation.finish()
        }
        let running = Task { try await server.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try? await origin.shutdown()
            throw ExitCode.failure
        }
        print("listening on http://127.0.0.1:\(port) (demo key \(hex(pair.key)), salt \(hex(pair.salt)))")
        print("origin http://127.0.0.1:\(origin.port) serves \(ServeDemoOrigin.photoPath), "
              + "\(ServeDemoOrigin.alphaPath), \(ServeDemoOrigin.animationPath)")
        let signer = URLSigner(keyPairs: [pair])
        let steps = ServeDemoStep.tour(origin: { origin.url($0).absoluteString }, sign: { signer.sign($0) })
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        var answers: [ServeDemoAnswer] = []
        var failures: [String] = []
        for step in steps {
            let etag = step.revalidates.flatMap { answers.indices.contains($0) ? answers[$0].etag : nil }
            let answer = await ServeDemoAnswer.fetch("http://127.0.0.1:\(port)" + step.path, ifNoneMatch: etag,
                                                     client: client)
            answers.append(answer)
            let problem = answer.problem(against: step)
            print(answer.line(step.name, ok: problem == nil))
            print("    http://127.0.0.1:\(port)\(step.path)")
            if let text = answer.text { print("    → \(text)") }
            if let problem { failures.append("\(step.name): \(problem)") }
        }
        try? await client.shutdown()
        await server.triggerGracefulShutdown()
        _ = await running.result
        try? await origin.shutdown()
        for failure in failures { Console.error("webimage: demo serve: \(failure)") }
        print("\(steps.count - failures.count) of \(steps.count) requests answered as expected")
        if !failures.isEmpty { throw ExitCode.failure }
    }

    /// 32 random bytes in hex: a key or salt nobody else has.
    private static func randomHex() -> String {
        hex((0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// What one demo request got back.
struct ServeDemoAnswer: Sendable {
    var status: Int?
    var contentType: String?
    var etag: String?
    var bytes: Int
    /// `WxH` and the frame count of an image body; nil for anything else.
    var imageSummary: String?
    /// The first line of a text or JSON body (an error's reason, `/info`'s answer).
    var text: String?
    /// Why no answer came (connection refused, timeout).
    var failure: String?

    static func fetch(_ url: String, ifNoneMatch: String?, client: HTTPClient) async -> ServeDemoAnswer {
        var request = HTTPClientRequest(url: url)
        if let ifNoneMatch { request.headers.add(name: "If-None-Match", value: ifNoneMatch) }
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
            let image = try? CodersManager.shared.decode(body, options: ImageDecodeOptions())
            let type = response.headers.first(name: "Content-Type")
            let isText = type.map { $0.hasPrefix("text/") || $0.hasPrefix("application/json") } ?? false
            return ServeDemoAnswer(status: Int(response.status.code), contentType: type,
                                   etag: response.headers.first(name: "ETag"), bytes: body.count,
                                   imageSummary: image.map { "\($0.pixelWidth)x\($0.pixelHeight) \($0.frameCount)f" },
                                   text: isText ? String(decoding: body, as: UTF8.self)
                                       .split(separator: "\n").first.map(String.init) : nil)
        } catch {
            return ServeDemoAnswer(bytes: 0, failure: "\(error)")
        }
    }

    /// Why the answer is not what `step` expects; nil when it is.
    func problem(against step: ServeDemoStep) -> String? {
        if let failure { return "no answer: \(failure)" }
        if status != step.expectedStatus { return "status \(status ?? 0), expected \(step.expectedStatus)" }
        if let type = step.expectedType, contentType != type {
            return "Content-Type \(contentType ?? "none"), expected \(type)"
        }
        return nil
    }

    /// `ok   200  image/jpeg        12345 B  320x240 1f  resize: …`
    func line(_ name: String, ok: Bool) -> String {
        let columns = [ok ? "ok  " : "FAIL", status.map(String.init) ?? "---",
                       (contentType ?? "-").padding(toLength: 26, withPad: " ", startingAt: 0),
                       "\(bytes) B".padding(toLength: 9, withPad: " ", startingAt: 0),
                       (imageSummary ?? "-").padding(toLength: 12, withPad: " ", startingAt: 0), name]
        return columns.joined(separator: "  ")
    }
}
