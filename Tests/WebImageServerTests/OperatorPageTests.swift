import Crypto
import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// The operator page's server side, on a real metrics listener: the snapshot after real requests, the slowest
/// requests with their stage times, and the URL builder against the service's own signer and routes.
@Suite struct OperatorPageTests {
    private static func counters(_ stats: [String: Any]) -> [String: Any] { stats["counters"] as? [String: Any] ?? [:] }

    @Test func theSnapshotCountsRequestsExactly() async throws {
        try await OperatorScene.with { scene in
            let jpeg = try Fixtures.jpeg(400, 300)
            scene.origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
            let before = try await scene.stats()
            #expect(Self.counters(before)["requests"] as? [String: Int] == [:])
            #expect(Self.counters(before)["sourceBytes"] as? Int == 0)

            let signed = URLSigner(keyPairs: [ProxyHarness.keyPair])
                .sign(ProxyHarness.plainPart("rs:fit:100:100", source: scene.origin.url("/a.jpg").absoluteString))
            #expect(try await scene.image(signed).status == 200)
            #expect(try await scene.image(signed).status == 200)
            #expect(try await scene.image("/badsignature/w:10/plain/http%3A%2F%2Fx/a.jpg").status == 403)
            #expect(try await scene.image("/health").status == 200)

            let after = try await scene.stats()
            let counters = Self.counters(after)
            #expect(counters["requests"] as? [String: Int] == ["200": 2, "403": 1])
            #expect(counters["misses"] as? Int == 1)
            #expect(counters["memoryHits"] as? Int == 1)
            #expect(counters["diskHits"] as? Int == 0)
            #expect(counters["encodes"] as? Int == 1)
            #expect(counters["sourceDownloads"] as? Int == 1)
            #expect(counters["sourceBytes"] as? Int == jpeg.count)
            let gauges = try #require(after["gauges"] as? [String: Any])
            #expect(gauges["inFlight"] as? Int == 0 && gauges["queued"] as? Int == 0 && gauges["workers"] as? Int == 2)

            // The history catches up within a few samples, and a page asking `since` gets only newer ones.
            var latest: [String: Any] = [:]
            #expect(await eventuallyAsync {
                let samples = (try? await scene.stats())?["history"] as? [[String: Any]] ?? []
                latest = samples.last ?? [:]
                return latest["requests"] as? Int == 3
            })
            #expect(latest["clientErrors"] as? Int == 1 && latest["serverErrors"] as? Int == 0)
            #expect(latest["memoryHits"] as? Int == 1 && latest["misses"] as? Int == 1)
            #expect(latest["sourceBytes"] as? Int == jpeg.count)
            let sequence = try #require(latest["sequence"] as? Int)
            let newer = try await scene.metrics("/operator/stats?since=\(sequence)").object()["history"] as? [[String: Any]]
            #expect(newer?.allSatisfy { ($0["sequence"] as? Int ?? 0) > sequence } == true)
        }
    }

    @Test func theSlowestListHoldsASlowRequestWithItsStages() async throws {
        try await OperatorScene.with { scene in
            scene.origin.route("/slow.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")],
                                                         body: try Fixtures.jpeg(300, 200), delay: .milliseconds(700)))
            scene.origin.route("/fast.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")],
                                                         body: try Fixtures.jpeg(30, 20)))
            let signer = URLSigner(keyPairs: [ProxyHarness.keyPair])
            let slow = signer.sign(ProxyHarness.plainPart("w:50", source: scene.origin.url("/slow.jpg").absoluteString))
            let fast = signer.sign(ProxyHarness.plainPart("w:10", source: scene.origin.url("/fast.jpg").absoluteString))
            #expect(try await scene.image(slow).status == 200)
            #expect(try await scene.image(fast).status == 200)

            let slowest = try #require(try await scene.stats()["slowest"] as? [[String: Any]])
            #expect(slowest.count == 2)
            // Slowest first. (Which one that is, the clock decides: on a loaded machine the small image can take
            // longer than the 700 ms origin.)
            let totals = slowest.map { $0["totalMilliseconds"] as? Double ?? -1 }
            #expect(totals == totals.sorted(by: >))
            // The signature is never shown.
            let shown = "/***" + slow.dropFirst().drop { $0 != "/" }
            let entry = try #require(slowest.first { $0["path"] as? String == shown })
            #expect(entry["status"] as? Int == 200 && entry["cache"] as? String == "miss")
            let total = try #require(entry["totalMilliseconds"] as? Double)
            let stages = try #require(entry["stages"] as? [String: Double])
            #expect(Set(stages.keys) == ["check", "cache", "queue", "download", "decode", "process", "encode"])
            #expect(try #require(stages["download"]) >= 690)
            #expect(total >= stages.values.reduce(0, +) - 1)
        }
    }

    /// Twenty-five requests of growing durations: the twenty slowest stay, slowest first; past the window none.
    @Test func theSlowestListKeepsTheSlowestOfItsWindow() async throws {
        let recent = RecentRequests(capacity: 20, window: .milliseconds(300))
        recent.startRecording()
        for index in 1...25 {
            recent.started()
            recent.ended(path: "/***/w:\(index)/plain/x", status: 200, nanoseconds: UInt64(index) * 1_000_000,
                         trace: RequestTrace())
        }
        #expect(recent.slowest.map(\.path) == (6...25).reversed().map { "/***/w:\($0)/plain/x" })
        #expect(recent.statuses == [200: 25])
        #expect(recent.inFlight == 0)
        // Faster than all twenty: not kept.
        recent.ended(path: "/***/fast", status: 304, nanoseconds: 1_000_000, trace: RequestTrace())
        #expect(recent.slowest.count == 20 && !recent.slowest.contains { $0.path == "/***/fast" })
        try await Task.sleep(for: .milliseconds(400))
        #expect(recent.slowest.isEmpty)
        recent.ended(path: "/***/late", status: 200, nanoseconds: 1_000, trace: RequestTrace())
        #expect(recent.slowest.map(\.path) == ["/***/late"])
        #expect(recent.statuses == [200: 26, 304: 1])
    }

    @Test func theBuilderSignsAsTheSignerDoesAndItsURLsAnswer() async throws {
        try await OperatorScene.with(page: OperatorPage(signsURLs: true)) { scene in
            let jpeg = try Fixtures.jpeg(400, 300)
            scene.origin.route("/b.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
            let source = scene.origin.url("/b.jpg").absoluteString
            let form = #"{"source":"\#(source)","resize":"fill","width":100,"height":80,"gravity":"sm","format":"png","quality":80}"#
            let answer = try await scene.metrics("/operator/sign", post: Data(form.utf8),
                                                 headers: [("Content-Type", "application/json")])
            #expect(answer.status == 200)
            let built = try answer.object()
            let encoded = "http%3A%2F%2F127.0.0.1%3A\(scene.origin.port)%2Fb.jpg"
            let signer = URLSigner(keyPairs: [ProxyHarness.keyPair])
            #expect(built["path"] as? String == signer.sign("/rs:fill:100:80/g:sm/q:80/plain/\(encoded)@png"))
            #expect(built["originalPath"] as? String == signer.sign("/raw:1/plain/\(encoded)"))
            #expect(built["signed"] as? Bool == true)

            let result = try await scene.image(try #require(built["path"] as? String))
            #expect(result.status == 200 && result.header("Content-Type") == "image/png")
            let image = try CodersManager.shared.decode(result.body, options: ImageDecodeOptions())
            #expect(image.pixels.width == 100 && image.pixels.height == 80)
            let original = try await scene.image(try #require(built["originalPath"] as? String))
            #expect(original.status == 200 && original.body == jpeg)

            // What the service refuses, the builder refuses with the service's reason.
            let bad = try await scene.metrics("/operator/sign", post: Data(#"{"source":"ftp://x/a.jpg"}"#.utf8),
                                              headers: [("Content-Type", "application/json")])
            #expect(bad.status == 404)
            #expect((try bad.object()["error"] as? String)?.isEmpty == false)
            // Only its own page asks: a form sent as a simple cross-site post, or naming another origin, is refused.
            let plain = try await scene.metrics("/operator/sign", post: Data(form.utf8),
                                                headers: [("Content-Type", "text/plain")])
            #expect(plain.status == 400)
            let foreign = try await scene.metrics("/operator/sign", post: Data(form.utf8),
                                                  headers: [("Content-Type", "application/json"),
                                                            ("Origin", "http://attacker.example")])
            #expect(foreign.status == 403)
        }
    }

    @Test func withoutOperatorSigningTheBuilderRefusesToUseTheKey() async throws {
        try await OperatorScene.with(page: OperatorPage()) { scene in
            let answer = try await scene.metrics("/operator/sign", post: Data(#"{"source":"http://127.0.0.1/a.jpg"}"#.utf8),
                                                 headers: [("Content-Type", "application/json")])
            #expect(answer.status == 403)
            #expect(try answer.object()["error"] as? String
                        == "signing is off on this listener: start webimage serve with --operator-signing")
            let builder = try #require(try await scene.stats()["builder"] as? [String: Any])
            #expect(builder["signs"] as? Bool == false && builder["keyed"] as? Bool == true)
            #expect(builder["imageBase"] as? String == "http://127.0.0.1:\(scene.port)")
        }
    }

    @Test func unsignedServicesGetUnsafeURLs() async throws {
        let configuration = ProxyHarness.configuration {
            $0.signing = .init(keyPairs: [], allowsUnsigned: true)
        }
        try await OperatorScene.with(configuration, page: OperatorPage(publicBaseURL: URL(string: "https://img.example/"))) { scene in
            scene.origin.route("/u.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(64, 48)))
            let form = #"{"source":"\#(scene.origin.url("/u.jpg").absoluteString)","width":32}"#
            let built = try await scene.metrics("/operator/sign", post: Data(form.utf8),
                                                headers: [("Content-Type", "application/json")]).object()
            let path = try #require(built["path"] as? String)
            #expect(path == "/unsafe/rs:fit:32:0/plain/http%3A%2F%2F127.0.0.1%3A\(scene.origin.port)%2Fu.jpg")
            #expect(built["signed"] as? Bool == false)
            #expect(try await scene.image(path).status == 200)
            let builder = try #require(try await scene.stats()["builder"] as? [String: Any])
            #expect(builder["imageBase"] as? String == "https://img.example")
        }
    }

    /// A proxy served without an operator page traces and records nothing for one.
    @Test func withoutAPageNothingIsRecorded() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/n.jpg", try Fixtures.jpeg(40, 30))
            #expect(try await harness.get(harness.signedPath("w:20", source: "/n.jpg")).status == 200)
            #expect(!harness.proxy.recentRequests.isRecording)
            #expect(harness.proxy.recentRequests.statuses.isEmpty && harness.proxy.recentRequests.slowest.isEmpty)
        }
    }

    /// The page is one document whose only script is the one its Content-Security-Policy names by hash.
    @Test func thePageIsSelfContained() async throws {
        try await OperatorScene.with { scene in
            let page = try await scene.metrics("/")
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
            let html = String(decoding: page.body, as: UTF8.self)
            let policy = try #require(page.header("Content-Security-Policy"))
            let scripts = html.components(separatedBy: "<script>").dropFirst().map { $0.components(separatedBy: "</script>")[0] }
            #expect(scripts.count == 1)
            let hash = Data(SHA256.hash(data: Data(try #require(scripts.first).utf8))).base64EncodedString()
            #expect(policy.contains("script-src 'sha256-\(hash)';"))
            #expect(policy.contains("connect-src 'self'"))
            // Nothing is loaded from elsewhere.
            #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("@import"))
            #expect(try await scene.metrics("/metrics").status == 200)
        }
    }
}

/// Polls an async condition until it holds or `timeout` seconds pass.
private func eventuallyAsync(timeout: Double = 30, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
