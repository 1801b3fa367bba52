import Foundation
import Testing
import TestSupport
import WebImage

/// `webimage info`, `decode` and `convert` on `.svgz` files: the SVG they hold, as that SVG gives; a gzip bomb
/// ends in the typed error within a few MB, however far it would inflate.
@Suite struct SVGZCommandTests {
    /// The drawing as `.svg` and `.svgz` in `dir`.
    private static func files(in dir: TemporaryDirectory) throws -> (svg: String, svgz: String) {
        let svg = dir.path("drawing.svg"), svgz = dir.path("drawing.svgz")
        try SVGZSamples.drawing.write(to: URL(fileURLWithPath: svg))
        try SVGZSamples.compressed().write(to: URL(fileURLWithPath: svgz))
        return (svg, svgz)
    }

    @Test func infoDescribesTheDrawing() async throws {
        let dir = try TemporaryDirectory()
        let (svg, svgz) = try Self.files(in: dir)
        let compressed = try await CLIRunner.run(["info", svgz, "--json"])
        let plain = try await CLIRunner.run(["info", svg, "--json"])
        #expect(compressed.status == 0 && compressed.stderr.isEmpty, "\(compressed.stderr)")
        #expect(compressed.stdout == plain.stdout)
        let json = try JSONSerialization.jsonObject(with: Data(compressed.stdout.utf8)) as? [String: Any]
        #expect(json?["format"] as? String == "svg" && json?["width"] as? Int == 100 && json?["height"] as? Int == 50)
    }

    @Test func decodeAndConvertGiveTheSVGsPixels() async throws {
        let dir = try TemporaryDirectory()
        let (svg, svgz) = try Self.files(in: dir)
        for (input, name) in [(svgz, "z"), (svg, "plain")] {
            let decoded = try await CLIRunner.run(["decode", input, "-o", dir.path("\(name).pam"), "--thumbnail", "200x200"])
            #expect(decoded.status == 0, "\(decoded.stderr)")
            let converted = try await CLIRunner.run(["convert", input, dir.path("\(name).png")])
            #expect(converted.status == 0 && converted.stderr.isEmpty, "\(converted.stderr)")
        }
        let pam = try Data(contentsOf: URL(fileURLWithPath: dir.path("z.pam")))
        #expect(pam == (try Data(contentsOf: URL(fileURLWithPath: dir.path("plain.pam")))))
        #expect(PAMHeader(pam) == PAMHeader(width: 200, height: 100))
        let png = try Data(contentsOf: URL(fileURLWithPath: dir.path("z.png")))
        #expect(png == (try Data(contentsOf: URL(fileURLWithPath: dir.path("plain.png")))))
        let image = try CodersManager.shared.decode(png, options: ImageDecodeOptions())
        #expect(image.format == .png && image.pixelSize == PixelSize(width: 100, height: 50))
    }

    /// 100 MB of spaces after an `<svg>` root in about 100 KB: every command stops at 100 times the file's size
    /// (10 MB), with one line on standard error, and never holds the 100 MB.
    @Test func aGzipBombIsRefusedWithinBoundedMemory() async throws {
        let dir = try TemporaryDirectory()
        let bomb = SVGZSamples.bomb(inflatedBytes: 100_000_000)
        let file = dir.path("bomb.svgz")
        try bomb.write(to: URL(fileURLWithPath: file))
        let baseline = try await MeasuredRun.baselineMB()
        let line = "webimage: \(file): the compressed document inflates past \(bomb.count * 100) bytes "
            + "(a decompression bomb); inflating stopped there"
        for arguments in [["info", file], ["decode", file, "-o", dir.path("out.pam")], ["convert", file, dir.path("out.png")]] {
            let result = try await MeasuredRun.run(arguments, timeout: 60)
            #expect(result.signal == nil && result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == [line], "\(arguments)")
            #expect(result.peakMB < baseline + 32, "\(arguments): peak \(result.peakMB) MB over a \(baseline) MB baseline")
        }
    }
}
