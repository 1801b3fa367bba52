import Foundation
import Testing
import TestSupport
import WebImage

/// `info`, `decode`, `convert` and `fetch --format` on AVIF and HEIC files from the corpus.
@Suite struct ModernFormatCommandTests {
    static let avif = TestCorpus.path("avif/kimono.rotate90.avif")
    static let animatedAVIF = TestCorpus.path("avif/colors-animated-8bpc.avif")
    static let heic = TestCorpus.path("heif/colors-with-alpha.heic")

    private func decodeFile(_ path: String) throws -> Image {
        try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: path)), options: ImageDecodeOptions())
    }

    private func infoJSON(_ path: String) async throws -> [String: Any] {
        let result = try await CLIRunner.run(["info", path, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func infoOnAVIFShowsTheDisplayedSize() async throws {
        let json = try await infoJSON(Self.avif)
        #expect(json["format"] as? String == "avif")
        #expect(json["width"] as? Int == 722)
        #expect(json["height"] as? Int == 1024)
        #expect(json["frameCount"] as? Int == 1)
        #expect(json["orientation"] as? Int == 1)
    }

    @Test func infoOnAnAVIFSequence() async throws {
        let json = try await infoJSON(Self.animatedAVIF)
        #expect(json["format"] as? String == "avif")
        #expect(json["frameCount"] as? Int == 5)
        #expect(json["isAnimated"] as? Bool == true)
        #expect(json["loopCount"] as? Int == 0)
        let expected = try decodeFile(Self.animatedAVIF).frameDurations
        #expect(json["frameDurations"] as? [Double] == expected)
    }

    @Test func infoOnHEIC() async throws {
        let json = try await infoJSON(Self.heic)
        #expect(json["format"] as? String == "heic")
        #expect(json["width"] as? Int == 64)
        #expect(json["height"] as? Int == 64)
        #expect(json["hasAlpha"] as? Bool == true)
    }

    @Test(arguments: [avif, heic])
    func decodeWritesTheLibraryPixels(path: String) async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", path, "-o", dir.path("out.png")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try decodeFile(dir.path("out.png")).pixels == (try decodeFile(path)).pixels.converted(to: .rgba8))
    }

    /// Every registered output format from AVIF and from HEIC, and back into both.
    @Test(arguments: [("avif", "jpg"), ("avif", "png"), ("avif", "gif"), ("avif", "webp"), ("avif", "heic"),
                      ("heic", "jpg"), ("heic", "png"), ("heic", "gif"), ("heic", "webp"), ("heic", "avif")])
    func convertsToEveryFormat(source: String, target: String) async throws {
        let input = source == "avif" ? Self.avif : Self.heic
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["convert", input, dir.path("out.\(target)"), "--quality", "0.6",
                                              "--max-pixel-size", "64x64"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try decodeFile(dir.path("out.\(target)"))
        #expect(image.format == ImageFormat(fileExtension: target))
        #expect(image.pixelSize == (source == "avif" ? PixelSize(width: 46, height: 64) : PixelSize(width: 64, height: 64)))
    }

    @Test(arguments: ["avif", "heic"])
    func convertsFromOtherFormats(target: String) async throws {
        let dir = try TemporaryDirectory()
        for input in [CLITestPaths.rgbaPNG, CLITestPaths.testWebP, CLITestPaths.moonGIF] {
            let result = try await CLIRunner.run(["convert", input, dir.path("out.\(target)"), "--format", target])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let source = try decodeFile(input)
            let image = try decodeFile(dir.path("out.\(target)"))
            #expect(image.pixelSize == source.pixelSize)
            #expect(image.hasAlpha == source.pixels.containsTransparency)
        }
    }

    @Test func gifToAVIFKeepsTheAnimation() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["convert", CLITestPaths.moonGIF, dir.path("moon.avif"), "--quality", "0.5"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try decodeFile(dir.path("moon.avif"))
        let source = try decodeFile(CLITestPaths.moonGIF)
        #expect(image.frameCount == source.frameCount)
        #expect(zip(image.frameDurations, source.frameDurations).allSatisfy { abs($0 - $1) < 0.001 })
    }

    @Test(arguments: ["avif", "heic"])
    func fetchWritesTheAskedFormat(format: String) async throws {
        let server = try await TestHTTPServer.start()
        server.route("/pics/photo.png", TestResponse(body: try Data(contentsOf: URL(fileURLWithPath: CLITestPaths.rgbaPNG))))
        let dir = try TemporaryDirectory()
        let out = dir.path("out")
        let result = try await CLIRunner.run(["fetch", server.url("/pics/photo.png").absoluteString, "-o", out,
                                              "--format", format, "--cache-dir", dir.path("c")], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try decodeFile(out + "/photo.\(format)")
        #expect(written.format == ImageFormat(fileExtension: format))
        #expect(written.pixelSize == PixelSize(width: 32, height: 32))
        #expect(written.hasAlpha)
        try await server.shutdown()
    }

    /// A corrupt AVIF is one error line naming the file, with the library's reason.
    @Test func corruptFileIsOneErrorLine() async throws {
        let path = TestCorpus.path("avif/alpha_noispe.avif")
        let result = try await CLIRunner.run(["info", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("webimage: \(path): corrupt image data: AVIF: BMFF parsing failed"))
    }
}
