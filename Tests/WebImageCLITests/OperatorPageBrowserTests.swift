import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage
import WebImageServer

/// The operator page of the real `webimage serve`, in a real headless browser (Debian's `chromium`): it loads,
/// its numbers follow the requests made, its builder's URL answers 200 and shows in the page, and it makes a
/// screenshot.
@Suite(.serialized) struct OperatorPageBrowserTests {
    static let key = "736563726574", salt = "68656c6c6f"

    /// Debian's chromium; the test fails without it (Scripts/setup.sh installs it).
    static func chromium() throws -> URL {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        return URL(fileURLWithPath: try #require(found, "chromium is not installed: run Scripts/setup.sh (Debian package chromium)"))
    }

    /// Runs headless chromium on `url` with `arguments` (`--dump-dom`, `--screenshot=…`) after letting the page's
    /// own timers run `milliseconds` of virtual time; its stdout.
    static func browse(_ url: String, _ arguments: [String], milliseconds: Int = 4000,
                       profile: TemporaryDirectory) async throws -> String {
        let run = try await ChildProcess.run(try chromium(), [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path("profile"))", "--virtual-time-budget=\(milliseconds)",
        ] + arguments + [url], timeout: 120)
        #expect(run.status == 0, "chromium failed: \(run.stderr.suffix(2000))")
        return run.stdout
    }

    /// The text of the element with `id` in a dumped DOM.
    static func text(of id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "id=\"\(id)\"") else { return nil }
        let rest = dom[start.upperBound...]
        guard let open = rest.firstIndex(of: ">") else { return nil }
        let after = rest[rest.index(after: open)...]
        return String(after.prefix { $0 != "<" })
    }

    /// The value of `attribute` on the element with `id`.
    static func attribute(_ attribute: String, of id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "id=\"\(id)\"") else { return nil }
        let tag = dom[dom[..<start.lowerBound].lastIndex(of: "<")!...].prefix { $0 != ">" }
        guard let value = tag.range(of: " \(attribute)=\"") else { return nil }
        return String(tag[value.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    static func get(_ url: String) async throws -> (status: Int, body: Data) {
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    @Test func thePageLoadsFollowsRequestsAndBuildsWorkingURLs() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        let pixels = PixelBuffer(width: 320, height: 240) { out in
            for index in stride(from: 0, to: out.count, by: 4) {
                let x = (index / 4) % 320, y = (index / 4) / 320
                out[index] = UInt8(x * 255 / 319); out[index + 1] = UInt8(y * 255 / 239); out[index + 2] = 128; out[index + 3] = 255
            }
        }
        let jpeg = try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodeOptions())
        origin.route("/photo.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let serve = try await ServeProcess.start(["--key", Self.key, "--salt", Self.salt, "--operator-signing"],
                                                 unsigned: false)
        defer { _ = serve.stop() }
        let profile = try TemporaryDirectory()
        let page = "http://127.0.0.1:\(serve.metricsPort)/"

        let first = try await Self.browse(page, ["--dump-dom"], profile: profile)
        #expect(Self.text(of: "requests-total", in: first) == "0", "\(first.prefix(3000))")
        #expect(Self.text(of: "misses", in: first) == "0")
        #expect(Self.text(of: "status", in: first)?.hasPrefix("live") == true)

        // One miss, two memory hits and a refused signature, asked of the image listener.
        let source = "http%3A%2F%2F127.0.0.1%3A\(origin.port)%2Fphoto.jpg"
        let path = try Self.signed("/rs:fit:160:120/plain/\(source)")
        for _ in 0..<3 { #expect(try await Self.get("http://127.0.0.1:\(serve.port)\(path)").status == 200) }
        #expect(try await Self.get("http://127.0.0.1:\(serve.port)/wrong/w:10/plain/\(source)").status == 403)

        let second = try await Self.browse(page, ["--dump-dom"], profile: profile)
        #expect(Self.text(of: "requests-total", in: second) == "4", "\(second.prefix(3000))")
        #expect(Self.text(of: "memory-hits", in: second) == "2")
        #expect(Self.text(of: "misses", in: second) == "1")
        #expect(Self.text(of: "status-200", in: second) == "200: 3")
        #expect(Self.text(of: "status-403", in: second) == "403: 1")
        #expect(second.contains("/***/rs:fit:160:120/plain/"), "the slowest list shows the request, signature hidden")
        #expect(!second.contains(String(path.dropFirst().prefix { $0 != "/" })), "no signature on the page")

        // The builder, filled from the fragment: the browser shows the result it links to, from the image listener.
        let fragment = "#build?source=\(source)&resize=fill&width=120&height=90&format=png"
        let built = try await Self.browse(page + fragment, ["--dump-dom"], milliseconds: 6000, profile: profile)
        let url = try #require(Self.text(of: "result-path", in: built), "\(built.prefix(3000))")
        #expect(url == "http://127.0.0.1:\(serve.port)" + (try Self.signed("/rs:fill:120:90/plain/\(source)@png")))
        #expect(Self.attribute("data-size", of: "result-img", in: built) == "120x90")
        #expect(Self.attribute("data-size", of: "original-img", in: built) == "320x240")
        let answer = try await Self.get(url)
        #expect(answer.status == 200)
        let result = try CodersManager.shared.decode(answer.body, options: ImageDecodeOptions())
        #expect(result.pixels.width == 120 && result.pixels.height == 90)

        let screenshot = profile.path("operator.png")
        _ = try await Self.browse(page + fragment, ["--screenshot=\(screenshot)", "--window-size=1280,1500",
                                                    "--hide-scrollbars"], milliseconds: 6000, profile: profile)
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        let header = try CodersManager.shared.header(for: png)
        #expect(header.format == .png && header.pixelSize == PixelSize(width: 1280, height: 1500))
        #expect(serve.stop() == 0)
    }

    /// `path` signed with the test key, as the service checks it (`URLSigner` is the library's own).
    static func signed(_ path: String) throws -> String {
        let pair = try #require(URLSigner.KeyPair(keyHex: key, saltHex: salt))
        return URLSigner(keyPairs: [pair]).sign(path)
    }
}
