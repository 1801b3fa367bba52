import Foundation
import RedisTestSupport
import Testing
import WebImage
@testable import WebImageRedis

/// `rediss://` and ACL users against a real `redis-server` 7.0 with TLS, with certificates `openssl` makes: values
/// shared over TLS, client certificates, and each way a managed Redis is commonly misconfigured ending in a miss
/// within the deadline, the breaker open with the reason, and the password nowhere.
@Suite(.serialized) struct RedisTLSTests {
    /// A password with characters a URL must escape, and unlike anything else in a message.
    static let password = "Zq7/pw:for@tests%"
    static let escapedPassword = "Zq7%2Fpw%3Afor%40tests%25"
    static let aclUser = ["--user", "default", "off", "--user", "alice", "on", ">\(password)", "~*", "&*", "+@all"]

    static func cache(_ url: String, tls: RedisTLS = RedisTLS(), deadline: Duration = .seconds(5),
                      failures: Int = 3) throws -> RedisImageCache {
        let endpoint = try #require(RedisEndpoint(url: url))
        return RedisImageCache(endpoints: [endpoint], configuration: RedisImageCache.Configuration(
            client: .init(deadline: deadline, breakerFailureThreshold: failures, breakerOpenDuration: .seconds(60), tls: tls)))
    }

    static let entry = SharedCacheEntry(bytes: Array((try? RedisImageCacheTests.png(4, 4)) ?? Data()), format: .png,
                                        etag: "\"e\"", lastModified: Date(timeIntervalSince1970: 1_790_000_000))

    /// Written by one client, read by another, through a host name (SNI, DNS name checked) and an address (no SNI,
    /// the address checked).
    @Test func valuesAreSharedOverTLS() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await RedisServerProcess.start(tls: .valid(certificates))
        defer { server.stop() }
        let trust = RedisTLS(trustRoots: .file(certificates.caFile))
        for host in ["localhost", "127.0.0.1"] {
            let writer = try Self.cache("rediss://\(host):\(server.port)", tls: trust)
            let reader = try Self.cache("rediss://\(host):\(server.port)", tls: trust)
            try await writer.store(Self.entry, forKey: "k-\(host)")
            #expect(try await reader.entry(forKey: "k-\(host)") == Self.entry)
            #expect(try await reader.entry(forKey: "absent") == nil)
            await writer.close()
            await reader.close()
        }
    }

    /// `redis://USER:PASSWORD@` logs in with `AUTH user password` (the default user is off, so nothing else could),
    /// the password percent-decoded; over TLS too.
    @Test func anACLUserLogsIn() async throws {
        let certificates = try await TestCertificates.shared()
        let plain = try await RedisServerProcess.start(arguments: Self.aclUser)
        defer { plain.stop() }
        let secure = try await RedisServerProcess.start(tls: .valid(certificates), arguments: Self.aclUser)
        defer { secure.stop() }
        for url in ["redis://alice:\(Self.escapedPassword)@127.0.0.1:\(plain.port)/2",
                    "rediss://alice:\(Self.escapedPassword)@localhost:\(secure.port)"] {
            let endpoint = try #require(RedisEndpoint(url: url))
            let client = RedisClient(endpoint: endpoint, configuration: .init(
                deadline: .seconds(5), tls: RedisTLS(trustRoots: .file(certificates.caFile))))
            #expect(try await client.command(["ACL", "WHOAMI"]) == .bulkString(Array("alice".utf8)))
            try await client.set("k", value: [1, 2, 3])
            #expect(try await client.get("k") == [1, 2, 3])
            await client.close()
        }
    }

    /// A server with `tls-auth-clients yes` takes a client with the certificate and turns away one without.
    @Test func aServerThatRequiresAClientCertificate() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await RedisServerProcess.start(tls: .valid(certificates, requiresClientCertificate: true))
        defer { server.stop() }
        let url = "rediss://localhost:\(server.port)"
        let identified = try Self.cache(url, tls: RedisTLS(trustRoots: .file(certificates.caFile),
                                                           certificateFile: certificates.clientCertificate,
                                                           privateKeyFile: certificates.clientKey))
        try await identified.store(Self.entry, forKey: "k")
        #expect(try await identified.entry(forKey: "k") == Self.entry)
        let anonymous = try Self.cache(url, tls: RedisTLS(trustRoots: .file(certificates.caFile)), failures: 1)
        await #expect(throws: RedisError.self) { try await anonymous.entry(forKey: "k") }
        #expect(!anonymous.isAvailable)
        // The server's alert, unless its reset (it closes with the client's command unread) overtook it.
        let refusal = "\(anonymous.unavailableServers.first?.failure.map { "\($0)" } ?? "none")"
        #expect(refusal == "Redis connection failed: localhost:\(server.port): TLS failed: the server refused this client "
                    + "(certificate required)"
                    || refusal.hasPrefix("Redis connection failed: localhost:\(server.port): the connection was lost"), "\(refusal)")
        await identified.close()
        await anonymous.close()
    }

    /// What is wrong with the server or the settings, and the words the breaker's reason must hold.
    enum Misconfiguration: String, CaseIterable, Sendable {
        case wrongCA, expiredCertificate, certificateForAnotherName, wrongPassword, plainTextServerOnRediss,
             tlsServerOnRedis

        var reason: [String] {
            switch self {
            case .wrongCA, .expiredCertificate: ["certificate was refused"]
            case .certificateForAnotherName: ["does not name this host"]
            case .wrongPassword: ["AUTH refused", "WRONGPASS"]
            case .plainTextServerOnRediss: ["TLS handshake", "redis://"]
            case .tlsServerOnRedis: ["rediss://"]
            }
        }
    }

    /// Each ends every call in a failure (for the tier: a miss) within the deadline plus a margin for a loaded
    /// machine; the breaker then opens with a reason that names the cause, and no message holds the password.
    @Test(arguments: Misconfiguration.allCases)
    func aMisconfigurationIsAMissWithinTheDeadline(_ case: Misconfiguration) async throws {
        let certificates = try await TestCertificates.shared()
        let tls: RedisServerProcess.TLS? = switch `case` {
        case .wrongCA, .tlsServerOnRedis: .valid(certificates)
        case .expiredCertificate:
            RedisServerProcess.TLS(certificateFile: certificates.expiredCertificate, keyFile: certificates.expiredKey,
                                   caFile: certificates.caFile)
        case .certificateForAnotherName:
            RedisServerProcess.TLS(certificateFile: certificates.otherNameCertificate, keyFile: certificates.otherNameKey,
                                   caFile: certificates.caFile)
        case .wrongPassword, .plainTextServerOnRediss: nil
        }
        let server = try await RedisServerProcess.start(tls: tls, arguments: Self.aclUser)
        defer { server.stop() }
        let password = `case` == .wrongPassword ? "not-\(Self.escapedPassword)" : Self.escapedPassword
        let scheme = [.wrongPassword, .tlsServerOnRedis].contains(`case`) ? "redis" : "rediss"
        let trust = RedisTLS(trustRoots: .file(`case` == .wrongCA ? certificates.otherCAFile : certificates.caFile))
        let deadline = Duration.milliseconds(300), failures = 3
        let cache = try Self.cache("\(scheme)://alice:\(password)@127.0.0.1:\(server.port)", tls: trust,
                                   deadline: deadline, failures: failures)
        var messages: [String] = []
        for attempt in 0..<failures {
            let start = ContinuousClock.now
            if attempt == 0 {
                #expect(await cache.queryImage(forKey: "k").cacheType == ImageCacheType.none)
            } else {
                do {
                    _ = try await cache.read(forKey: "k")
                    Issue.record("\(`case`): a read succeeded")
                } catch {
                    messages.append("\(error)")
                }
            }
            #expect(ContinuousClock.now - start < deadline + .seconds(2), "\(`case`), call \(attempt)")
        }
        #expect(!cache.isAvailable)
        let failure = try #require(cache.unavailableServers.first?.failure)
        for words in `case`.reason {
            #expect("\(failure)".contains(words), "\(`case`): \(failure)")
        }
        let start = ContinuousClock.now
        await #expect(throws: RedisError.unavailable) { try await cache.read(forKey: "k") }
        #expect(ContinuousClock.now - start < .milliseconds(100))
        do {
            try await cache.storeImage(nil, data: Data(Self.entry.bytes), forKey: "k")
            Issue.record("\(`case`): a write succeeded")
        } catch {
            messages.append("\(error)")
        }
        messages += ["\(failure)", cache.unavailableServers.map(\.name).joined()]
        for message in messages {
            #expect(!message.contains(Self.password) && !message.contains(Self.escapedPassword), "\(message)")
        }
        await cache.close()
    }

    /// Settings that cannot be used are found by ``RedisTLS/check()`` (a start-up check) and fail every call
    /// saying why, never a crash.
    @Test func unusableSettingsAreFoundAndFailCalls() async throws {
        let certificates = try await TestCertificates.shared()
        let missing = RedisTLS(trustRoots: .file("/nonexistent/ca.pem"))
        #expect(throws: RedisTLS.SetupError(description: "cannot read the CA file '/nonexistent/ca.pem' as PEM certificates")) {
            try missing.check()
        }
        #expect(throws: RedisTLS.SetupError(description: "a client certificate needs its private key")) {
            try RedisTLS(certificateFile: certificates.clientCertificate).check()
        }
        #expect(throws: RedisTLS.SetupError(description: "a client key needs its certificate")) {
            try RedisTLS(privateKeyFile: certificates.clientKey).check()
        }
        #expect(throws: RedisTLS.SetupError(description: "cannot read the client key '\(certificates.caFile)' as a PEM private key")) {
            try RedisTLS(certificateFile: certificates.clientCertificate, privateKeyFile: certificates.caFile).check()
        }
        try RedisTLS(trustRoots: .file(certificates.caFile), certificateFile: certificates.clientCertificate,
                     privateKeyFile: certificates.clientKey).check()
        let cache = try Self.cache("rediss://127.0.0.1:1", tls: missing, failures: 1)
        await #expect(throws: RedisError.connectionFailed(
            "127.0.0.1:1: TLS settings: cannot read the CA file '/nonexistent/ca.pem' as PEM certificates")) {
            try await cache.read(forKey: "k")
        }
        await cache.close()
    }
}
