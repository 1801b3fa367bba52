import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage
@testable import webimage

/// `webimage serve`: one-line failures for bad values, the environment variables, and a real run that prints
/// one `listening on` line, answers, and exits 0 on SIGTERM.
@Suite struct ServeCommandTests {
    @Test func badValuesFailWithOneLine() async throws {
        let cases: [([String], String)] = [
            (["--bind", "nope"], "webimage: --bind: bad value 'nope': give HOST:PORT (e.g. 127.0.0.1:8080)"),
            (["--bind", "127.0.0.1:70000", "--allow-unsigned"],
             "webimage: --bind: bad value '127.0.0.1:70000': give HOST:PORT (e.g. 127.0.0.1:8080)"),
            (["--key", "abc", "--salt", "00"], "webimage: --key: bad key/salt 'abc'/'00': give non-empty even-length hex"),
            (["--key", "00"], "webimage: --key: 1 keys but 0 salts: give one --salt per --key"),
            ([], "webimage: --key: give a signing --key and --salt, or --allow-unsigned"),
            (["--allow-unsigned", "--workers", "0"], "webimage: --workers: bad value '0': give a positive whole number"),
            (["--allow-unsigned", "--queue", "-1"], "webimage: --queue: bad value '-1': give a whole number"),
            // Numbers that would overflow a clock or an integer type later are refused up front.
            (["--allow-unsigned", "--shared-cache", "redis://127.0.0.1:1", "--shared-cache-deadline-ms", "9223372036854775807"],
             "webimage: --shared-cache-deadline-ms: bad value '9223372036854775807': give at most 1000000000"),
            (["--allow-unsigned", "--drain-seconds", "10000000000"],
             "webimage: --drain-seconds: bad value '10000000000': give at most 1000000000"),
            (["--allow-unsigned", "--max-src-bytes", "many"],
             "webimage: --max-src-bytes: bad value 'many': give a positive whole number"),
            (["--allow-unsigned", "--metrics-bind", "x"],
             "webimage: --metrics-bind: bad value 'x': give HOST:PORT (e.g. 127.0.0.1:8080)"),
            (["--allow-unsigned", "--source-ca", "/nonexistent/ca.pem"],
             "webimage: --source-ca: bad value '/nonexistent/ca.pem': cannot read it"),
            (["--allow-unsigned", "--log-level", "loud"],
             "webimage: --log-level: bad value 'loud': give one of trace, debug, info, notice, warning, error, critical"),
        ]
        for (arguments, line) in cases {
            let result = try await CLIRunner.run(["serve"] + arguments, timeout: 60)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines == [line], "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func environmentVariablesUnderFlags() throws {
        let environment = ["WEBIMAGE_BIND": "0.0.0.0:9000", "WEBIMAGE_KEY": "736563726574,6f6c64",
                           "WEBIMAGE_SALT": "68656C6C6F,73616c74", "WEBIMAGE_ALLOW_PRIVATE_SOURCES": "1",
                           "WEBIMAGE_ALLOWED_SOURCES": "https://a.example/, https://b.example/",
                           "WEBIMAGE_MAX_SRC_BYTES": "1000", "WEBIMAGE_MAX_SRC_MEGAPIXELS": "3",
                           "WEBIMAGE_WORKERS": "3", "WEBIMAGE_CACHE_DIR": "/tmp/x", "WEBIMAGE_NO_NEGOTIATION": "true",
                           "WEBIMAGE_NO_AVIF_NEGOTIATION": "1", "WEBIMAGE_MEMORY_CACHE_BYTES": "1000000",
                           "WEBIMAGE_DISK_CACHE_BYTES": "5000000000"]
        let settings = try ServeCommand.parse(["--workers", "5"]).makeSettings(environment: environment)
        #expect(settings.bind == ServeAddress(host: "0.0.0.0", port: 9000))
        let configuration = settings.configuration
        #expect(configuration.signing.keyPairs.count == 2)
        #expect(configuration.sources.policy.allowsPrivateAddresses)
        #expect(configuration.sources.policy.allowedPrefixes == ["https://a.example/", "https://b.example/"])
        #expect(configuration.limits.maxSourceBytes == 1000 && configuration.limits.maxSourcePixels == 3_000_000)
        #expect(configuration.concurrency.workers == 5 && configuration.concurrency.queueSize == 10)
        #expect(configuration.caches.directory?.path == "/tmp/x")
        #expect(configuration.caches.memoryBytes == 1_000_000 && configuration.caches.diskBytes == 5_000_000_000)
        #expect(!configuration.responses.negotiatesFormat && !configuration.responses.negotiatesAVIF && !configuration.signing.allowsUnsigned)
        let defaults = try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: [:])
        #expect(defaults.bind == ServeAddress(host: "127.0.0.1", port: 8080))
        #expect(defaults.drainTimeout == .seconds(20))
        #expect(defaults.configuration.responses.negotiatesFormat && defaults.configuration.responses.negotiatesAVIF)
        #expect(!defaults.configuration.sources.policy.allowsPrivateAddresses)
        #expect(defaults.configuration.limits.maxSourcePixels == 50_000_000)
        #expect(defaults.configuration.caches.memoryBytes == 64 << 20 && defaults.configuration.caches.diskBytes == 1 << 30)
        #expect(defaults.logLevel == .warning && defaults.accessLog)
        #expect(defaults.configuration.sources.additionalTrustRootFiles.isEmpty)
        let dir = try TemporaryDirectory()
        try Data("not checked until a connection".utf8).write(to: URL(fileURLWithPath: dir.path("ca.pem")))
        let trusting = try ServeCommand.parse(["--allow-unsigned"])
            .makeSettings(environment: ["WEBIMAGE_SOURCE_CA": dir.path("ca.pem")])
        #expect(trusting.configuration.sources.additionalTrustRootFiles == [dir.path("ca.pem")])
    }

    @Test func loggingSettingsFromFlagsAndEnvironment() throws {
        let environment = ["WEBIMAGE_LOG_LEVEL": "DEBUG", "WEBIMAGE_ACCESS_LOG": "0"]
        let fromEnvironment = try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: environment)
        #expect(fromEnvironment.logLevel == .debug && !fromEnvironment.accessLog)
        let fromFlags = try ServeCommand.parse(["--allow-unsigned", "--log-level", "error", "--access-log"])
            .makeSettings(environment: environment)
        #expect(fromFlags.logLevel == .error && fromFlags.accessLog)
        let off = try ServeCommand.parse(["--allow-unsigned", "--no-access-log"]).makeSettings(environment: [:])
        #expect(!off.accessLog)
        #expect(throws: CLIFailure.self) {
            _ = try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: ["WEBIMAGE_ACCESS_LOG": "maybe"])
        }
    }

    @Test func servesUntilSIGTERM() async throws {
        let dir = try TemporaryDirectory()
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0", "--allow-unsigned", "--cache-dir", dir.path("cache")],
                                         stdout: .pipe)
        defer { process.terminate() }
        let out = try #require(process.standardOutput)
        let announced = try await ServeAnnouncement.read(out)
        #expect(announced.lines == ["listening on http://127.0.0.1:\(announced.port)"])
        let port = announced.port
        #expect(port > 0)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/health"))
        let (body, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "ok\n")
        process.terminate()
        await process.exited()
        #expect(process.termination == .exited(0))
        let rest = out.readDataToEndOfFile()
        #expect(announced.rest.isEmpty && rest.isEmpty)
    }

    /// `--metrics-bind` serves the registry in Prometheus' text format, with the requests Hummingbird counted
    /// and the pipeline's own metrics (bootstrapped before the proxy was made).
    ///
    /// The service's own metrics come from one real image request through a loopback origin, and the access
    /// log (on by default) writes one line per request on stderr.
    @Test func servesPrometheusMetricsOnTheMetricsListener() async throws {
        let dir = try TemporaryDirectory()
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30) { _ in }),
                                                   as: .jpeg, options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let err = dir.url.appendingPathComponent("stderr")
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0", "--allow-unsigned", "--allow-private-sources",
                                          "--cache-dir", dir.path("cache"), "--metrics-bind", "127.0.0.1:0"],
                                         stdout: .pipe, stderr: .file(err))
        defer { process.terminate() }
        let announced = try await ServeAnnouncement.read(try #require(process.standardOutput), metrics: true)
        let port = announced.port, metricsPort = try #require(announced.metricsPort)
        #expect(Set(announced.lines) == ["listening on http://127.0.0.1:\(port)", "metrics on http://127.0.0.1:\(metricsPort)"])
        let health = try #require(URL(string: "http://127.0.0.1:\(port)/health"))
        _ = try await URLSession.shared.data(from: health)
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let image = try #require(URL(string: "http://127.0.0.1:\(port)/_/w:20/plain/\(source)@png"))
        let (_, imageResponse) = try await URLSession.shared.data(from: image)
        #expect((imageResponse as? HTTPURLResponse)?.statusCode == 200)
        let metricsURL = try #require(URL(string: "http://127.0.0.1:\(metricsPort)/metrics"))
        var text = ""
        let healthCount = "hb_requests{http_route=\"/health\",http_request_method=\"GET\",http_response_status_code=\"200\"} 1"
        for _ in 0..<50 where !text.contains(healthCount) {
            if let (body, _) = try? await URLSession.shared.data(from: metricsURL) { text = String(decoding: body, as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(text.contains(healthCount))
        #expect(text.contains("# TYPE swiftwebimage_downloads_started_total counter"))
        #expect(text.contains("swiftwebimage_cache_evictions_total{tier=\"disk\",reason=\"limit\"} 0"))
        for expected in ["swiftwebimage_serve_encodes_total 1", "swiftwebimage_serve_result_cache_misses_total 1",
                         "swiftwebimage_serve_source_downloads_total 1", "swiftwebimage_serve_coalesced_total 0",
                         "swiftwebimage_serve_rejected_total 0", "swiftwebimage_serve_requests_in_flight 0.0",
                         // An image path is counted under the router's `**` route (answered without its trie).
                         "hb_requests{http_route=\"/**\",http_request_method=\"GET\",http_response_status_code=\"200\"} 1",
                         "swiftwebimage_serve_queue_depth 0.0",
                         "swiftwebimage_serve_result_cache_hits_total{tier=\"memory\"} 0",
                         "swiftwebimage_download_received_bytes_total \(jpeg.count)"] {
            #expect(text.contains(expected + "\n"), "\(expected)")
        }
        for stage in ["download", "decode", "process", "encode"] {
            #expect(text.contains("swiftwebimage_serve_stage_duration_seconds_count{stage=\"\(stage)\"} 1\n"), "\(stage)")
        }
        process.terminate()
        await process.exited()
        #expect(process.termination == .exited(0))
        let access = String(decoding: try Data(contentsOf: err), as: UTF8.self)
            .split(separator: "\n").filter { $0.contains("SwiftWebImage.serve.access") }
        #expect(access.count == 2)
        #expect(access.first?.contains("path=/health") == true && access.first?.contains("status=200") == true)
        #expect(access.last?.contains("cache=miss") == true && access.last?.contains("path=/***/w:20/plain/") == true)
    }

    /// A loopback port nothing listens on right now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
