import Foundation
import Testing
import WebImage
@testable import webimage

/// The CLI's building blocks on images made in memory: the `info` summary, PAM output, formats, failures.
@Suite struct SummaryAndOutputTests {
    /// Three 4×2 frames of 0.1 s, looping twice, EXIF orientation 6, with transparency.
    private func animation() -> ImageSummary {
        ImageSummary(format: "gif", width: 4, height: 2, frameCount: 3, loopCount: 2, frameDurations: [0.1, 0.1, 0.1],
                     hasAlpha: true, orientation: 6, isAnimated: true)
    }

    @Test func summaryJSONIsTheDocumentedContract() throws {
        let text = try JSONOutput.text(animation())
        #expect(text == """
            {"format":"gif","frameCount":3,"frameDurations":[0.1,0.1,0.1],"hasAlpha":true,"height":2,\
            "isAnimated":true,"loopCount":2,"orientation":6,"width":4}
            """)
    }

    @Test func summaryOfAStillImage() throws {
        let summary = ImageSummary(ImageHeader(format: .png, pixelSize: PixelSize(width: 3, height: 5), hasAlpha: false))
        #expect(summary == ImageSummary(format: "png", width: 3, height: 5, frameCount: 1, loopCount: 0,
                                        frameDurations: [0], hasAlpha: false, orientation: 1, isAnimated: false))
        #expect(summary.text(file: "a.png") == """
            a.png
              format      png
              size        3x5 px
              frames      1
              alpha       no
              orientation 1 (up)
            """)
    }

    @Test func summaryTextOfAnAnimation() {
        #expect(animation().text(file: "a.gif") == """
            a.gif
              format      gif
              size        4x2 px
              frames      3 (animated)
              loop count  2
              durations   0.1 0.1 0.1 s
              alpha       yes
              orientation 6 (right)
            """)
    }

    @Test(arguments: [(0.1, "0.1"), (0.0, "0"), (1.0, "1"), (0.0333333, "0.033"), (2.5, "2.5")])
    func secondsAreShort(value: Double, text: String) {
        #expect(ImageSummary.seconds(value) == text)
    }

    @Test func pamOutputIsDWebPFormat() throws {
        let image = Image(pixels: PixelBuffer(width: 4, height: 2, bytes: [UInt8](repeating: 200, count: 4 * 2 * 4)))
        let data = try OutputKind.pam.data(for: image, path: "x.pam")
        #expect(data == image.pixels.pamData())
        let header = "P7\nWIDTH 4\nHEIGHT 2\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(data.prefix(header.utf8.count) == Data(header.utf8))
        #expect(data.count == header.utf8.count + 4 * 2 * 4)
        #expect(try OutputKind(path: "/tmp/OUT.PAM") == .pam)
    }

    @Test func formatNamesAndExtensions() throws {
        #expect(throws: CLIFailure.self) { try OutputFormat.resolve("tga", path: "x.png") }
        #expect(throws: CLIFailure.self) { try OutputFormat.resolve(nil, path: "x") }
        #expect(throws: CLIFailure.self) { try OutputFormat.resolve(nil, path: "x.xyz") }
        do {
            _ = try OutputFormat.resolve("tga", path: "out.png")
            Issue.record("expected a failure")
        } catch let failure as CLIFailure {
            #expect(failure.description == "webimage: out.png: unknown --format 'tga': use jpeg, png, gif, webp, avif, heic or jxl")
        }
    }

    @Test func failuresAreOneLineAndKeepWebImageErrorText() {
        let flattened = CLIFailure(subject: "a.png", reason: "first\nsecond")
        #expect(flattened.description == "webimage: a.png: first second")
        let wrapped = CLIFailure(subject: "b.gif", error: WebImageError.badImageData(.truncated))
        #expect(wrapped.description == "webimage: b.gif: truncated image data")
        let kept = CLIFailure(subject: "ignored", error: CLIFailure(subject: "c.webp", reason: "cannot write: x"))
        #expect(kept.subject == "c.webp")
    }

    @Test func fileIOReportsTheSystemReason() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("data.bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try FileIO.write(bytes, to: path)
        #expect(try FileIO.read(path, limit: bytes.count) == bytes)
        do {
            _ = try FileIO.read(path, limit: bytes.count - 1, limitOption: "--max-input-bytes")
            Issue.record("expected a failure")
        } catch let failure as CLIFailure {
            #expect(failure.reason == "larger than the 199999-byte input limit: raise it with --max-input-bytes")
        }
        do {
            _ = try FileIO.read(dir.path("none"), limit: FileIO.defaultInputLimit)
            Issue.record("expected a failure")
        } catch let failure as CLIFailure {
            #expect(failure.reason == "cannot read: No such file or directory")
        }
        do {
            try FileIO.write(bytes, to: dir.path("missing/x"))
            Issue.record("expected a failure")
        } catch let failure as CLIFailure {
            #expect(failure.reason == "cannot write: No such file or directory")
        }
        try FileIO.makeDirectory(dir.path("a/b/c"))
        #expect(FileManager.default.fileExists(atPath: dir.path("a/b/c")))
        #expect(throws: CLIFailure.self) { try FileIO.makeDirectory(path) }
    }
}
