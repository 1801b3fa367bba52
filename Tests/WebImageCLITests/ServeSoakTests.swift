import Foundation
import Testing
import TestSupport
import WebImage

/// A short soak of `webimage serve` (the assertion-only version of `Benchmarks/soak.sh`, no timing): for about 12 s
/// valid requests, hostile sources, malformed and rude clients and a slowloris run at once against one child
/// process. Valid requests are answered 200 (or 429), each hostile source its documented status and never 200,
/// refused requests at most one 4xx, `/health` answers throughout, and SIGTERM ends the process with status 0.
@Suite struct ServeSoakTests {
    static let seconds = 12
    /// Rounds each loop makes even past the deadline: under the whole suite's load a loop's thread has started
    /// after the 12 s were over (its `async let` waits for the cooperative pool) and made none.
    static let minimumRounds = 8

    @Test func servesThroughHostileSourcesAndClients() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        try Self.routeSources(on: origin)
        // Animations processed up to 100 frames: a 5,000-frame GIF of 1 MP frames is 100 MP then, over the limit.
        let serve = try await ServeProcess.start(["--workers", "2", "--queue", "64", "--max-src-bytes", "1000000",
                                                  "--max-animation-frames", "100",
                                                  "--download-timeout", "2", "--download-idle-timeout", "1",
                                                  "--allowed-source", "http://127.0.0.1:\(origin.port)/"])
        defer { _ = serve.stop() }
        let port = serve.port, originPort = origin.port
        let deadline = ContinuousClock.now + .seconds(Self.seconds)
        async let valid = onDedicatedThread { try Self.validLoop(port: port, originPort: originPort, until: deadline) }
        async let hostile = onDedicatedThread { try Self.hostileLoop(port: port, originPort: originPort, until: deadline) }
        async let rude = onDedicatedThread { try Self.rudeLoop(port: port, originPort: originPort, until: deadline) }
        async let slow = onDedicatedThread { try Self.slowlorisLoop(port: port, until: deadline) }
        let reports = try await [valid, hostile, rude, slow]
        for report in reports {
            #expect(report.problems.isEmpty, "\(report.name): \(report.problems.prefix(10))")
            #expect(report.count > 0, "\(report.name) ran nothing")
        }
        #expect(reports[1].kinds == Set(Self.hostileSources(originPort: originPort).map { $0.kind }),
                "every hostile source was asked at least once")
        #expect(serve.process.isRunning, "the server is alive after the soak: \(serve.stderr.suffix(2000))")
        #expect(try Self.ask(port, "GET", "/health").status == 200)
        #expect(serve.stop() == 0, "SIGTERM ends the server with status 0")
        #expect(!serve.stderr.contains("Fatal error"), "\(serve.stderr.suffix(2000))")
    }

    /// What one loop did: requests made, the hostile kinds asked, and every answer outside its class.
    struct Report: Sendable {
        var name: String
        var count = 0
        var kinds: Set<String> = []
        var problems: [String] = []
    }

    /// The status, headers (lower-cased names) and text of one answer.
    struct Answer {
        var status: Int?
        var headers: [String: String] = [:]
        var text: String

        init(_ text: String) {
            self.text = text
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            let lines = head.components(separatedBy: "\r\n")
            status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }

        /// The status of every answer in `text`, in order (for pipelined requests).
        var statuses: [Int] {
            text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
        }
    }

    /// One request on a connection of its own (`Connection: close`).
    static func ask(_ port: Int, _ method: String, _ path: String, headers: [String] = []) throws -> Answer {
        let socket = try RawSocket(port: port, readTimeout: 30)
        try socket.send("\(method) \(path) HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n"
                        + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        return Answer(socket.readToEnd())
    }

    static func imagePath(_ options: String, _ source: String, format: String? = nil) -> String {
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
        return "/_/\(options)/plain/\(encoded)" + (format.map { "@" + $0 } ?? "")
    }

    // MARK: - sources

    static let validNames = ["ok.jpg", "ok.png", "ok.webp", "ok.gif"]

    static func routeSources(on origin: TestHTTPServer) throws {
        let noise = SplitMix64.bytes(count: 320 * 240 * 4, seed: 27)
        let photo = Image(pixels: PixelBuffer(width: 320, height: 240,
                                              bytes: noise.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }))
        var jpeg = Data()
        for (name, format, type) in [("ok.jpg", ImageFormat.jpeg, "image/jpeg"), ("ok.png", .png, "image/png"),
                                     ("ok.webp", .webp, "image/webp"), ("ok.gif", .gif, "image/gif")] {
            let data = try CodersManager.shared.encode(photo, as: format, options: ImageEncodeOptions())
            if format == .jpeg { jpeg = data }
            origin.route("/" + name, TestResponse(headers: [("Content-Type", type)], body: data))
        }
        func image(_ path: String, _ body: Data, type: String = "image/png",
                   extra: [(name: String, value: String)] = [], behavior: TestResponse.Behavior = .normal) {
            origin.route(path, TestResponse(headers: [(name: "Content-Type", value: type)] + extra, body: body,
                                            behavior: behavior))
        }
        image("/pixel.png", pixelBombPNG(width: 100_000, height: 100_000))
        image("/frames.gif", AnimationBombs.gif(width: 1000, height: 1000, frames: 5000), type: "image/gif")
        image("/canvas.gif", AnimationBombs.gif(width: 65_535, height: 65_535, frames: 3), type: "image/gif")
        image("/truncated.jpg", jpeg.prefix(jpeg.count / 2), type: "image/jpeg")
        image("/random.jpg", SplitMix64.bytes(count: 20_000, seed: 7), type: "image/jpeg")
        image("/page.html", Data(String(repeating: "<p>not an image</p>", count: 50).utf8), type: "text/html")
        image("/gzip.png", ContentEncoding.gzip(Data(count: 8_000_000)), extra: [("Content-Encoding", "gzip")])
        image("/oversize.jpg", Data(count: 2_000_000), type: "image/jpeg")
        image("/drip.jpg", jpeg, type: "image/jpeg", behavior: .drip(chunkSize: 1, interval: .milliseconds(300)))
        image("/hang.jpg", jpeg, type: "image/jpeg", behavior: .hang)
        image("/reset.jpg", jpeg, type: "image/jpeg", behavior: .reset)
        origin.route("/loop-a.jpg", TestResponse(status: 302, headers: [("Location", "/loop-b.jpg")]))
        origin.route("/loop-b.jpg", TestResponse(status: 302, headers: [("Location", "/loop-a.jpg")]))
        origin.route("/broken.jpg", TestResponse(status: 500, body: Data("origin failure".utf8)))
    }

    /// A PNG whose header declares `width` × `height` (8-bit RGB) over a few bytes of image data.
    static func pixelBombPNG(width: Int, height: Int) -> Data {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return ZlibZeros.bigEndian(UInt32(data.count)) + body + ZlibZeros.bigEndian(ZlibZeros.crc32(body))
        }
        let header = ZlibZeros.bigEndian(UInt32(width)) + ZlibZeros.bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
                    + chunk("IDAT", ZlibZeros.stream(count: 64)) + chunk("IEND", []))
    }

    /// Each hostile request: its kind, its path on the service and the status Docs/Service.md documents for it.
    static func hostileSources(originPort: Int) -> [(kind: String, path: String, status: Int)] {
        let base = "http://127.0.0.1:\(originPort)"
        let sources: [(String, String, Int)] = [
            ("pixel bomb", "/pixel.png", 422), ("5,000 frames", "/frames.gif", 422),
            ("65,535² canvas", "/canvas.gif", 422), ("truncated", "/truncated.jpg", 422),
            ("random bytes", "/random.jpg", 422), ("HTML", "/page.html", 422), ("gzip of zeros", "/gzip.png", 422),
            ("over --max-src-bytes", "/oversize.jpg", 422), ("dripping body", "/drip.jpg", 504),
            ("hanging origin", "/hang.jpg", 504), ("redirect loop", "/loop-a.jpg", 404), ("5xx", "/broken.jpg", 502),
            ("missing", "/missing.jpg", 404), ("reset", "/reset.jpg", 404),
        ]
        return sources.map { (kind: $0.0, path: imagePath("rs:fit:50:50", base + $0.1), status: $0.2) } + [
            (kind: "expired URL", path: imagePath("w:50/exp:1", base + "/ok.jpg"), status: 404),
            (kind: "source not allowed", path: imagePath("w:50", "http://127.0.0.2:\(originPort)/ok.jpg"), status: 404),
            (kind: "unknown option", path: imagePath("zz:1", base + "/ok.jpg"), status: 400),
        ]
    }

    // MARK: - loops

    /// Cold results (new options), then the same again (same ETag), a revalidation (304) and a HEAD.
    static func validLoop(port: Int, originPort: Int, until deadline: ContinuousClock.Instant) throws -> Report {
        var report = Report(name: "valid")
        func expect(_ answer: Answer, _ statuses: Set<Int>, _ what: String) {
            report.count += 1
            if !(answer.status.map { statuses.contains($0) || $0 == 429 } ?? false) {
                report.problems.append("\(what) → \(answer.status.map(String.init) ?? "no answer"): \(answer.text.prefix(200))")
            }
        }
        var index = 0
        while ContinuousClock.now < deadline || index < minimumRounds {
            index += 1
            let name = validNames[index % validNames.count]
            let path = imagePath("rs:fit:\(20 + index % 300):\(20 + index / 3 % 200)", "http://127.0.0.1:\(originPort)/\(name)",
                                 format: ["webp", "png", "jpg", nil][index / 4 % 4])
            let cold = try ask(port, "GET", path)
            expect(cold, [200], "cold \(path)")
            guard cold.status == 200, let etag = cold.headers["etag"] else { continue }
            let warm = try ask(port, "GET", path)
            expect(warm, [200], "warm \(path)")
            if warm.status == 200 && warm.headers["etag"] != etag {
                report.problems.append("warm \(path): ETag \(etag) → \(warm.headers["etag"] ?? "none")")
            }
            expect(try ask(port, "GET", path, headers: ["If-None-Match: \(etag)"]), [304], "revalidate \(path)")
            expect(try ask(port, "HEAD", path), [200], "HEAD \(path)")
        }
        return report
    }

    /// Every hostile source in turn, again and again.
    static func hostileLoop(port: Int, originPort: Int, until deadline: ContinuousClock.Instant) throws -> Report {
        var report = Report(name: "hostile")
        let sources = hostileSources(originPort: originPort)
        var index = 0
        while ContinuousClock.now < deadline || index < sources.count {
            let source = sources[index % sources.count]
            index += 1
            let answer = try ask(port, "GET", source.path)
            report.count += 1
            report.kinds.insert(source.kind)
            if answer.status != source.status && answer.status != 429 {
                report.problems.append("\(source.kind) \(source.path) → \(answer.status.map(String.init) ?? "no answer")"
                                       + " (documented \(source.status)): \(answer.text.prefix(200))")
            }
        }
        return report
    }

    /// Malformed, oversized and ambiguous requests, pipelining, and clients that leave before or during the
    /// answer. A refused request gets at most one answer, a 4xx, and the connection ends.
    static func rudeLoop(port: Int, originPort: Int, until deadline: ContinuousClock.Instant) throws -> Report {
        var report = Report(name: "rude clients")
        let big = imagePath("el:1/rs:fit:1200:900", "http://127.0.0.1:\(originPort)/ok.png", format: "png")
        let refused: [(String, String)] = [
            ("garbage", "\u{1}\u{2}HELLO\u{7F} WORLD\r\n\r\n"),
            ("100 KB request line", "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: a\r\n\r\n"),
            ("5,000 headers", "GET /health HTTP/1.1\r\nHost: a\r\n"
                + (0..<5000).map { "X-\($0): v\r\n" }.joined() + "\r\n"),
            ("Content-Length with Transfer-Encoding", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n"),
            ("two Content-Lengths", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy"),
            ("no Host", "GET /health HTTP/1.1\r\n\r\n"),
            ("header without a colon", "GET /health HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n"),
        ]
        var index = 0
        while ContinuousClock.now < deadline || index < minimumRounds {
            index += 1
            report.count += 1
            switch index % 4 {
            case 0:
                let (name, request) = refused[index / 4 % refused.count]
                let socket = try RawSocket(port: port)
                try? socket.send(request)
                let statuses = Answer(socket.readToEnd()).statuses
                if statuses.count > 1 || !statuses.allSatisfy({ [400, 413, 414, 431].contains($0) }) {
                    report.problems.append("\(name) answered \(statuses)")
                }
            case 1:
                let socket = try RawSocket(port: port)
                try socket.send(String(repeating: "GET /health HTTP/1.1\r\nHost: a\r\n\r\n", count: 4)
                                + "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                let statuses = Answer(socket.readToEnd()).statuses
                if statuses != [200, 200, 200, 200, 200] { report.problems.append("5 pipelined answered \(statuses)") }
            case 2:
                // Leaves before the answer (a reset), on a request that makes a result.
                let socket = try RawSocket(port: port)
                try socket.send("GET \(big) HTTP/1.1\r\nHost: a\r\n\r\n")
                socket.reset()
            default:
                // Leaves during the answer: the result (4 MB of noise as PNG, cached after the first time) is
                // being written when the reset comes.
                let socket = try RawSocket(port: port)
                try socket.send("GET \(big) HTTP/1.1\r\nHost: a\r\n\r\n")
                Thread.sleep(forTimeInterval: 0.3)
                socket.reset()
            }
        }
        return report
    }

    /// Twenty connections that send a request line and then one header line every half second, never the end of
    /// the headers; `/health` is asked between the lines and must answer 200 each time.
    static func slowlorisLoop(port: Int, until deadline: ContinuousClock.Instant) throws -> Report {
        var report = Report(name: "slowloris")
        var held: [RawSocket] = []
        for _ in 0..<20 {
            let socket = try RawSocket(port: port)
            try socket.send("GET /health HTTP/1.1\r\nHost: a\r\n")
            held.append(socket)
        }
        var line = 0
        while ContinuousClock.now < deadline || line < minimumRounds {
            line += 1
            // A connection the server has closed fails its send: that is its right.
            for socket in held { try? socket.send("X-Slow-\(line): x\r\n") }
            let health = try ask(port, "GET", "/health")
            report.count += 1
            if health.status != 200 {
                report.problems.append("/health during slowloris → \(health.status.map(String.init) ?? "no answer")")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        for socket in held { socket.reset() }
        return report
    }
}
