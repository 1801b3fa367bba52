import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// The access log: exactly one `info` line per request, its fields as metadata, the signature redacted.
@Suite struct ProxyAccessLogTests {
    private static let label = ImageProxy.accessLoggerLabel

    private static func configuration(_ logs: LogStore) -> ImageProxyConfiguration {
        ProxyHarness.configuration {
            $0.accessLogger = logs.logger(label, level: .info)
            // A held origin answer waits for the test: the 5 s source deadline must not fire first under load.
            $0.timeouts.download = .seconds(60)
            $0.timeouts.downloadIdle = .seconds(60)
        }
    }

    @Test func oneRequestGivesOneLineWithItsStatusAndCacheOutcome() async throws {
        let logs = LogStore()
        try await ProxyHarness.with(Self.configuration(logs)) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(400, 300))
            let path = harness.signedPath("rs:fit:100:100", source: "/a.jpg")
            let signature = String(path.split(separator: "/")[0])

            let cold = try await harness.get(path)
            #expect(cold.status == 200)
            let first = logs.all
            #expect(first.count == 1)
            let line = try #require(first.first)
            #expect(line.label == Self.label && line.level == .info && line.message == "request")
            #expect(line.metadata["method"] == "GET")
            #expect(line.metadata["status"] == "200")
            #expect(line.metadata["cache"] == "miss")
            #expect(line.metadata["bytes"] == String(cold.body.count))
            #expect(line.metadata["path"] == "/***" + path.dropFirst(1 + signature.count))
            #expect(!(line.metadata["path"] ?? "").contains(signature))
            #expect(Double(line.metadata["duration_ms"] ?? "") != nil)

            logs.removeAll()
            #expect(try await harness.get(path, method: .HEAD).status == 200)
            let warm = logs.all
            #expect(warm.count == 1)
            #expect(warm.first?.metadata["method"] == "HEAD")
            #expect(warm.first?.metadata["cache"] == "memory")
            #expect(warm.first?.metadata["bytes"] == "0")
        }
    }

    @Test func refusalsAndOperationalRoutesAreLoggedWithoutACacheOutcome() async throws {
        let logs = LogStore()
        try await ProxyHarness.with(Self.configuration(logs)) { harness async throws in
            #expect(try await harness.get("/forged/w:10/plain/http%3A%2F%2F127.0.0.1%2Fa.jpg").status == 403)
            #expect(try await harness.get("/health").status == 200)
            #expect(try await harness.get("/info/forged/plain/http%3A%2F%2F127.0.0.1%2Fa.jpg").status == 403)
            let lines = logs.all
            #expect(lines.map { $0.metadata["status"] } == ["403", "200", "403"])
            #expect(lines.map { $0.metadata["cache"] } == ["none", "none", "none"])
            #expect(lines.map { $0.metadata["path"] } == ["/***/w:10/plain/http%3A%2F%2F127.0.0.1%2Fa.jpg", "/health",
                                                         "/info/***/plain/http%3A%2F%2F127.0.0.1%2Fa.jpg"])
        }
    }

    @Test func coalescedRequestsSaySo() async throws {
        let logs = LogStore()
        try await ProxyHarness.with(Self.configuration(logs)) { harness in
            let gate = TestGate()
            var held = TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(40, 30))
            held.gate = gate
            harness.origin.route("/held.jpg", held)
            let path = harness.signedPath("w:20", source: "/held.jpg")
            let leader = Task { try await harness.get(path) }
            #expect(await eventually { harness.origin.requestCount(for: "/held.jpg") == 1 })
            let follower = Task { try await harness.get(path) }
            #expect(await eventually { harness.proxy.statistics.snapshot.coalesced == 1 })
            gate.open()
            #expect(try await leader.value.status == 200)
            #expect(try await follower.value.status == 200)
            #expect(logs.all.map { $0.metadata["cache"] ?? "" }.sorted() == ["coalesced", "miss"])
        }
    }
}
