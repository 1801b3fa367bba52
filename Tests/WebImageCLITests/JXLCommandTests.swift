import Foundation
import Testing
import TestSupport
import WebImage

/// `info`, `decode`, `convert` and `fetch --format jxl` on JPEG XL files, run as a user would.
@Suite struct JXLCommandTests {
    private static let animation = TestCorpus.path("jxl/animation_icos4d.jxl")
    private static let oriented = TestCorpus.path("jxl/bench_oriented_brg.jxl")

    @Test func infoReportsAnAnimation() async throws {
        let result = try await CLIRunner.run(["info", Self.animation, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "jxl")
        #expect(json["width"] as? Int == 128)
        #expect(json["frameCount"] as? Int == 48)
        #expect(json["hasAlpha"] as? Bool == true)
        #expect((json["frameDurations"] as? [Double])?.allSatisfy { abs($0 - 0.05) < 1e-9 } == true)
    }

    @Test func infoReportsTheOrientation() async throws {
        let result = try await CLIRunner.run(["info", Self.oriented, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["orientation"] as? Int == 5)
        #expect(json["width"] as? Int == 500)
    }

    @Test func decodeWritesTheUprightFrame() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", Self.oriented, "-o", dir.path("out.png"), "--apply-orientation"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try CodersManager.shared.decode(Data(contentsOf: dir.url.appendingPathComponent("out.png")),
                                                    options: .init())
        #expect(image.pixelSize == PixelSize(width: 606, height: 500))
    }

    @Test func convertToAndFromJXLKeepsTheAnimation() async throws {
        let dir = try TemporaryDirectory()
        var result = try await CLIRunner.run(["convert", CLITestPaths.moonGIF, dir.path("moon.jxl"), "--lossless"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let jxl = try CodersManager.shared.decode(Data(contentsOf: dir.url.appendingPathComponent("moon.jxl")),
                                                  options: .init())
        let gif = try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: CLITestPaths.moonGIF)),
                                                  options: .init())
        #expect(jxl.format == .jxl)
        #expect(jxl.frameCount == 14)
        #expect(jxl.loopCount == 10)
        #expect(jxl.frames.map(\.pixels) == gif.frames.map(\.pixels))
        #expect(zip(jxl.frameDurations, gif.frameDurations).allSatisfy { abs($0 - $1) < 0.001 })

        result = try await CLIRunner.run(["convert", dir.path("moon.jxl"), dir.path("moon.webp")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let webp = try CodersManager.shared.decode(Data(contentsOf: dir.url.appendingPathComponent("moon.webp")),
                                                   options: .init())
        #expect(webp.format == .webp)
        #expect(webp.pixelSize == gif.pixelSize)
    }

    @Test func fetchWritesJXL() async throws {
        let server = try await TestHTTPServer.start()
        let png = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30)), as: .png,
                                                  options: .init())
        server.route("/pics/photo.png", TestResponse(body: png))
        let dir = try TemporaryDirectory()
        let out = dir.path("out")
        let result = try await CLIRunner.run(["fetch", server.url("/pics/photo.png").absoluteString, "-o", out,
                                              "--format", "jxl", "--quality", "0.8", "--cache-dir", dir.path("c")],
                                             timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: out + "/photo.jxl")),
                                                      options: .init())
        #expect(written.format == .jxl)
        #expect(written.pixelSize == PixelSize(width: 40, height: 30))
        try await server.shutdown()
    }
}
