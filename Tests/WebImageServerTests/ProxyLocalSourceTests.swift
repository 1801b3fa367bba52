import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy's `local://` sources under `IMGPROXY_LOCAL_FILESYSTEM_ROOT`: off by default, and nothing outside the
/// root — no `..`, no link leading out, no directory, device or FIFO — is ever read.
@Suite struct ProxyLocalSourceTests {
    /// A root holding `a.png` (30×20), `dir/`, a FIFO, links in and out, and a sibling secret outside it.
    final class Tree {
        let base: URL
        var root: URL { base.appendingPathComponent("root") }

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("local-\(UUID().uuidString)")
            let manager = FileManager.default
            try manager.createDirectory(at: root.appendingPathComponent("dir"), withIntermediateDirectories: true)
            try Fixtures.png(30, 20).write(to: root.appendingPathComponent("a.png"))
            try Fixtures.png(5, 5).write(to: base.appendingPathComponent("secret.png"))
            try Data(count: 2_000).write(to: root.appendingPathComponent("big.bin"))
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("inside.png").path, withDestinationPath: "a.png")
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("outside.png").path,
                                           withDestinationPath: base.appendingPathComponent("secret.png").path)
            #expect(mkfifo(root.appendingPathComponent("pipe").path, 0o600) == 0)
        }

        deinit { try? FileManager.default.removeItem(at: base) }
    }

    /// The signed path of `options` on `source` as written (not on the test origin).
    static func path(_ options: String, _ source: String) -> String {
        URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart(options, source: source))
    }

    @Test func filesUnderTheRootAreServed() async throws {
        let tree = try Tree()
        let configuration = ProxyHarness.configuration { $0.sources.localRoot = tree.root }
        try await ProxyHarness.with(configuration) { harness in
            func get(_ source: String, _ options: String = "f:png") async throws -> ProxyHarness.Answer {
                try await harness.get(Self.path(options, source))
            }
            let answer = try await get("local:///a.png", "w:15/f:png")
            #expect(answer.status == 200)
            #expect(try answer.image().pixelSize == PixelSize(width: 15, height: 10))
            #expect(try await get("local:///inside.png").status == 200)
            let refused: [(String, Int)] = [
                ("local:///outside.png", 404), ("local:///../secret.png", 404), ("local:///dir/../../secret.png", 404),
                ("local:///%2e%2e/secret.png", 404), ("local:///dir", 404), ("local:///pipe", 404),
                ("local:///missing.png", 404), ("local:///a.png%00.jpg", 400), ("local://host/a.png", 400),
            ]
            for (source, status) in refused {
                let refusal = try await get(source)
                #expect(refusal.status == status, "\(source): \(refusal.text)")
            }
        }
    }

    @Test func localSourcesAreOffByDefaultAndBounded() async throws {
        let tree = try Tree()
        try await ProxyHarness.with { harness in
            let answer = try await harness.get(Self.path("f:png", "local:///a.png"))
            #expect(answer.status == 404)
            #expect(answer.text.contains("--local-root"))
        }
        let configuration = ProxyHarness.configuration {
            $0.sources.localRoot = tree.root
            $0.limits.maxSourceBytes = 1_000
            $0.sources.policy.allowedPrefixes = ["local:///a"]
        }
        try await ProxyHarness.with(configuration) { harness in
            let unlisted = try await harness.get(Self.path("f:png", "local:///big.bin"))
            #expect(unlisted.status == 404)
            let listed = try await harness.get(Self.path("f:png", "local:///a.png"))
            #expect(listed.status == 200)
        }
        let small = ProxyHarness.configuration {
            $0.sources.localRoot = tree.root
            $0.limits.maxSourceBytes = 1_000
        }
        try await ProxyHarness.with(small) { harness in
            let big = try await harness.get(Self.path("f:png", "local:///big.bin"))
            #expect(big.status == 422)
        }
    }
}
