import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RedisTestSupport
import TestSupport
import Testing
import WebImage
import WebImageRedis
@testable import webimage

/// `webimage serve --shared-cache …`: the Redis servers and the tier's settings, by flag or environment.
@Suite struct ServeSharedCacheOptionsTests {
    @Test func flagsAndTheirDefaults() throws {
        let settings = try ServeCommand.parse(["--allow-unsigned", "--shared-cache", "redis://10.0.0.5:6380/2",
                                               "--shared-cache", "redis://:pw@cache.internal"])
            .makeSettings(environment: ["WEBIMAGE_SHARED_CACHE": "redis://ignored:1"])
        let shared = try #require(settings.configuration.caches.shared)
        #expect(shared.endpoints == [RedisEndpoint(host: "10.0.0.5", port: 6380, database: 2),
                                     RedisEndpoint(host: "cache.internal", port: 6379, password: "pw")])
        #expect(shared.redis.timeToLive == .seconds(604_800) && shared.redis.client.deadline == .milliseconds(50))
        #expect(shared.redis.client.breakerFailureThreshold == 3 && shared.redis.client.breakerOpenDuration == .seconds(5))
        #expect(try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: [:]).configuration.caches.shared == nil)
    }

    @Test func environmentVariables() throws {
        let environment = ["WEBIMAGE_SHARED_CACHE": "redis://a:7000, redis://b:7001/1", "WEBIMAGE_SHARED_CACHE_TTL": "60",
                           "WEBIMAGE_SHARED_CACHE_DEADLINE_MS": "20", "WEBIMAGE_SHARED_CACHE_BREAKER_FAILURES": "5",
                           "WEBIMAGE_SHARED_CACHE_BREAKER_SECONDS": "2"]
        let settings = try ServeCommand.parse(["--allow-unsigned", "--shared-cache-ttl", "120"])
            .makeSettings(environment: environment)
        let shared = try #require(settings.configuration.caches.shared)
        #expect(shared.endpoints.map(\.description) == ["redis://a:7000/0", "redis://b:7001/1"])
        #expect(shared.redis.timeToLive == .seconds(120) && shared.redis.client.deadline == .milliseconds(20))
        #expect(shared.redis.client.breakerFailureThreshold == 5 && shared.redis.client.breakerOpenDuration == .seconds(2))
    }

    /// `rediss://`, an ACL user and the TLS files, by flag and by variable.
    @Test func tlsAndACLSettings() async throws {
        let certificates = try await TestCertificates.shared()
        let url = "rediss://alice:p%40ss@cache.internal:6380/1"
        let flags = try ServeCommand.parse(["--allow-unsigned", "--shared-cache", url,
                                            "--shared-cache-ca", certificates.caFile,
                                            "--shared-cache-cert", certificates.clientCertificate,
                                            "--shared-cache-key", certificates.clientKey]).makeSettings(environment: [:])
        let variables = try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: [
            "WEBIMAGE_SHARED_CACHE": url, "WEBIMAGE_SHARED_CACHE_CA": certificates.caFile,
            "WEBIMAGE_SHARED_CACHE_CERT": certificates.clientCertificate, "WEBIMAGE_SHARED_CACHE_KEY": certificates.clientKey])
        for settings in [flags, variables] {
            let shared = try #require(settings.configuration.caches.shared)
            #expect(shared.endpoints == [RedisEndpoint(host: "cache.internal", port: 6380, database: 1, username: "alice",
                                                       password: "p@ss", usesTLS: true)])
            #expect(shared.redis.client.tls == RedisTLS(trustRoots: .file(certificates.caFile),
                                                        certificateFile: certificates.clientCertificate,
                                                        privateKeyFile: certificates.clientKey))
        }
        let plain = try ServeCommand.parse(["--allow-unsigned", "--shared-cache", "redis://h"]).makeSettings(environment: [:])
        #expect(plain.configuration.caches.shared?.redis.client.tls == RedisTLS())
    }

    /// A cluster's seeds, in one URL or several, by flag or by the variable (whose list is cut at commas).
    @Test func clusterSeeds() throws {
        let seeds = [RedisEndpoint(host: "a", port: 7000, username: "u", password: "pw", isCluster: true),
                     RedisEndpoint(host: "b", port: 7001, username: "u", password: "pw", isCluster: true)]
        for (flags, environment) in [(["--shared-cache", "redis-cluster://u:pw@a:7000,b:7001"], [:]),
                                     ([], ["WEBIMAGE_SHARED_CACHE": "redis-cluster://u:pw@a:7000, b:7001"]),
                                     (["--shared-cache", "redis-cluster://u:pw@a:7000", "--shared-cache", "redis-cluster://u:pw@b:7001"], [:])] {
            let settings = try ServeCommand.parse(["--allow-unsigned"] + flags).makeSettings(environment: environment)
            #expect(settings.configuration.caches.shared?.endpoints == seeds, "\(flags) \(environment)")
        }
    }

    @Test func badValuesNameTheFlag() throws {
        let cases: [([String], String)] = [
            (["--shared-cache", "http://a:1"],
             "webimage: --shared-cache: bad value 'http://a:1': give redis[s]://[[USER]:PASSWORD@]HOST:PORT[/DB] or redis[s]-cluster://…"),
            // The password is not repeated.
            (["--shared-cache", "rediss://alice:hunter2@h:0"],
             "webimage: --shared-cache: bad value 'rediss://***@h:0': give redis[s]://[[USER]:PASSWORD@]HOST:PORT[/DB] or redis[s]-cluster://…"),
            (["--shared-cache", "redis-cluster://a:7000", "--shared-cache", "redis://b:6379"],
             "webimage: --shared-cache: give standalone servers or a cluster's seeds, not both"),
            (["--shared-cache", "redis-cluster://a:7000", "--shared-cache", "rediss-cluster://b:7001"],
             "webimage: --shared-cache: a cluster's seeds are all redis-cluster:// or all rediss-cluster://"),
            (["--shared-cache", "rediss://h", "--shared-cache-ca", "/nonexistent/ca.pem"],
             "webimage: --shared-cache: TLS: cannot read the CA file '/nonexistent/ca.pem' as PEM certificates"),
            (["--shared-cache", "rediss://h", "--shared-cache-cert", "/etc/hostname"],
             "webimage: --shared-cache: TLS: a client certificate needs its private key"),
            (["--shared-cache", "redis://a:1", "--shared-cache-deadline-ms", "0"],
             "webimage: --shared-cache-deadline-ms: bad value '0': give a positive whole number"),
            (["--shared-cache", "redis://a:1", "--shared-cache-ttl", "soon"],
             "webimage: --shared-cache-ttl: bad value 'soon': give a positive whole number"),
        ]
        for (arguments, line) in cases {
            let failure = try #require(try Self.failure(arguments), "\(arguments)")
            #expect(failure.description == line)
        }
    }

    /// A real `webimage serve` whose Redis is gone: images still answer 200, `/ready` stays 200 and
    /// `/metrics` shows the tier unavailable and the failed lookups.
    @Test func aDeadRedisShowsInTheMetricsAndRequestsSucceed() async throws {
        let dir = try TemporaryDirectory()
        let origin = try await TestHTTPServer.start()
        let pixels = PixelBuffer(width: 8, height: 8) { out in for i in out.indices { out[i] = 200 } }
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")],
                                            body: try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg,
                                                                                  options: ImageEncodeOptions())))
        let deadPort = try ServeCommandTests.freePort()
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0", "--allow-unsigned", "--allow-private-sources",
                                          "--cache-dir", dir.path("cache"), "--metrics-bind", "127.0.0.1:0",
                                          "--shared-cache", "redis://127.0.0.1:\(deadPort)"],
                                         stdout: .pipe)
        defer { process.terminate() }
        let announced = try await ServeAnnouncement.read(try #require(process.standardOutput), metrics: true)
        let port = announced.port, metricsPort = try #require(announced.metricsPort)
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let image = try #require(URL(string: "http://127.0.0.1:\(port)/_/w:4/plain/\(source)"))
        let (_, answer) = try await URLSession.shared.data(from: image)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        let ready = try #require(URL(string: "http://127.0.0.1:\(port)/ready"))
        #expect((try await URLSession.shared.data(from: ready).1 as? HTTPURLResponse)?.statusCode == 200)
        let metricsURL = try #require(URL(string: "http://127.0.0.1:\(metricsPort)/metrics"))
        var text = ""
        for _ in 0..<50 where !text.contains("swiftwebimage_shared_cache_available 0") {
            if let (body, _) = try? await URLSession.shared.data(from: metricsURL) { text = String(decoding: body, as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(text.contains("swiftwebimage_shared_cache_available 0"))
        // Refused at once on an idle machine; on a loaded one the 50 ms deadline can pass first.
        #expect(["connection", "timeout"].contains { reason in
            text.contains("swiftwebimage_shared_cache_errors_total{kind=\"result\",reason=\"\(reason)\"} 1")
        })
        process.terminate()
        await process.exited()
        #expect(process.termination == .exited(0))
        try await origin.shutdown()
    }

    /// A real `webimage serve` over a real Redis Cluster (3 masters, 3 replicas), seeded from two nodes by the
    /// variable: what it serves lands in the cluster, on the masters of the keys' slots.
    @Test func aClusterStoresWhatIsServed() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let origin = try await ServeSharedCacheTLSTests.origin()
        defer { Task { try? await origin.shutdown() } }
        let seeds = "redis-cluster://127.0.0.1:\(cluster.servers[0].port),127.0.0.1:\(cluster.servers[4].port)"
        let serve = try await ServeProcess.start(["--shared-cache-deadline-ms", "2000"],
                                                 environment: ["WEBIMAGE_SHARED_CACHE": seeds])
        defer { _ = serve.stop() }
        #expect(try RawSocket(port: serve.port).request(ServeSharedCacheTLSTests.imagePath(origin)).hasPrefix("HTTP/1.1 200"))
        let reader = RedisImageCache(endpoints: try #require(RedisEndpoint.endpoints(url: seeds)),
                                     configuration: .init(client: .init(deadline: .seconds(5))))
        let sourceKey = "s:" + origin.url("/a.jpg").absoluteString
        var source: SharedCacheEntry?
        for _ in 0..<100 where source == nil {
            source = try await reader.entry(forKey: sourceKey)
            if source == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(source?.format == .jpeg)
        var keys = 0
        for master in try await cluster.nodes() where master.isMaster {
            let client = cluster.client(port: master.port)
            if case .integer(let count) = try await client.command(["DBSIZE"]) { keys += count }
            await client.close()
        }
        #expect(keys == 2)
        await reader.close()
        #expect(serve.stop() == 0)
        #expect(!serve.stderr.contains("shared cache"), "\(serve.stderr)")
    }

    private static func failure(_ arguments: [String]) throws -> CLIFailure? {
        do {
            _ = try ServeCommand.parse(["--allow-unsigned"] + arguments).makeSettings(environment: [:])
            return nil
        } catch let failure as CLIFailure {
            return failure
        }
    }
}
