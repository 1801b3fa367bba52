import Foundation
import Testing
import WebImage

/// `webimage convert`: the output decodes, is in the asked format, and keeps animation where it can.
@Suite struct ConvertCommandTests {
    /// Converts and decodes the output with the library.
    private func convert(_ input: String, to name: String, _ extra: [String] = []) async throws -> Image {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["convert", input, dir.path(name)] + extra)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        return try CodersManager.shared.decode(Data(contentsOf: dir.url.appendingPathComponent(name)),
                                               options: ImageDecodeOptions())
    }

    @Test func gifToWebPKeepsAnimation() async throws {
        let image = try await convert(CLITestPaths.moonGIF, to: "moon.webp")
        #expect(image.format == .webp)
        #expect(image.pixelSize == PixelSize(width: 116, height: 100))
        #expect(image.loopCount == 10)
        // libwebp's animation encoder merges identical consecutive frames and adds up their durations: the
        // GIF's first three and last three frames are the same picture (md5 of their PAMs), so 14 × 0.15 s
        // become 0.45 s, 8 × 0.15 s, 0.45 s — the same 2.1 s of animation.
        let expected = [0.45] + Array(repeating: 0.15, count: 8) + [0.45]
        #expect(image.frameCount == expected.count)
        #expect(zip(image.frameDurations, expected).allSatisfy { abs($0 - $1) < 0.001 })
    }

    @Test func gifToPNGMakesAnAPNG() async throws {
        let image = try await convert(CLITestPaths.moonGIF, to: "moon.png")
        #expect(image.format == .png)
        #expect(image.frameCount == 14)
        #expect(image.loopCount == 10)
        let source = try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: CLITestPaths.moonGIF)),
                                                     options: ImageDecodeOptions())
        #expect(image.frames.map(\.pixels) == source.frames.map(\.pixels))
    }

    @Test func gifToJPEGTakesTheFirstFrame() async throws {
        let image = try await convert(CLITestPaths.moonGIF, to: "moon.jpg")
        #expect(image.format == .jpeg)
        #expect(image.frameCount == 1)
        #expect(image.pixelSize == PixelSize(width: 116, height: 100))
    }

    @Test func webPToGIF() async throws {
        let image = try await convert(CLITestPaths.testWebP, to: "test.gif")
        #expect(image.format == .gif)
        #expect(image.pixelSize == PixelSize(width: 128, height: 128))
    }

    @Test func formatOptionOverridesTheExtension() async throws {
        let image = try await convert(CLITestPaths.rgbaPNG, to: "out.bin", ["--format", "webp", "--lossless"])
        #expect(image.format == .webp)
        #expect(image.hasAlpha)
    }

    @Test func maxPixelSizeShrinks() async throws {
        let image = try await convert(CLITestPaths.testWebP, to: "small.png", ["--max-pixel-size", "64x48"])
        #expect(image.pixelSize == PixelSize(width: 48, height: 48))
    }

    @Test func maxFileSizeIsMet() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["convert", CLITestPaths.interlacedGIF, dir.path("s.jpg"), "--max-file-size", "20000"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: dir.path("s.jpg"))[.size] as? Int
        #expect((size ?? .max) <= 20_000)
    }

    @Test func qualityChangesTheOutput() async throws {
        let dir = try TemporaryDirectory()
        for quality in ["0.2", "0.95"] {
            let result = try await CLIRunner.run(["convert", CLITestPaths.testWebP, dir.path("q\(quality).jpg"), "--quality", quality])
            #expect(result.status == 0, "stderr: \(result.stderr)")
        }
        let low = try Data(contentsOf: dir.url.appendingPathComponent("q0.2.jpg"))
        let high = try Data(contentsOf: dir.url.appendingPathComponent("q0.95.jpg"))
        #expect(low.count < high.count)
    }
}
