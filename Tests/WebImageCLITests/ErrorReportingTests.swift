import Foundation
import Testing
import TestSupport

/// Every failure a user can cause ends with status 1 and one stderr line naming the file and the reason.
@Suite struct ErrorReportingTests {
    /// Runs and checks the one-line contract; returns the line.
    @discardableResult
    private func expectOneLineFailure(_ arguments: [String], naming file: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await CLIRunner.run(arguments, timeout: 60)
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("webimage: \(file): "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        return line
    }

    @Test func missingFile() async throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path("nope.png")
        for arguments in [["info", missing], ["decode", missing, "-o", dir.path("x.pam")],
                          ["convert", missing, dir.path("x.png")]] {
            let line = try await expectOneLineFailure(arguments, naming: missing)
            #expect(line.hasSuffix("cannot read: No such file or directory"))
        }
    }

    @Test func directoryAsInput() async throws {
        let dir = try TemporaryDirectory()
        let line = try await expectOneLineFailure(["info", dir.url.path], naming: dir.url.path)
        #expect(line.hasSuffix("cannot read: Is a directory"))
    }

    @Test func garbageFile() async throws {
        let dir = try TemporaryDirectory()
        let garbage = dir.path("garbage.png")
        try Data("this is not an image at all, just text".utf8).write(to: URL(fileURLWithPath: garbage))
        let line = try await expectOneLineFailure(["info", garbage], naming: garbage)
        #expect(line.contains("unsupported format"))
    }

    @Test func emptyFile() async throws {
        let dir = try TemporaryDirectory()
        let empty = dir.path("empty.gif")
        try Data().write(to: URL(fileURLWithPath: empty))
        let line = try await expectOneLineFailure(["info", empty], naming: empty)
        #expect(line.hasSuffix("empty image data"))
    }

    /// Cut inside the image data (for the GIF inside its first frame: a GIF cut after whole frames still shows them).
    @Test(arguments: [(CLITestPaths.testWebP, 3_000), (CLITestPaths.moonGIF, 1_000), (CLITestPaths.rgbaPNG, 92)])
    func truncatedFile(source: String, keep: Int) async throws {
        let dir = try TemporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let truncated = dir.path("cut-" + (source as NSString).lastPathComponent)
        try bytes.prefix(keep).write(to: URL(fileURLWithPath: truncated))
        try await expectOneLineFailure(["decode", truncated, "-o", dir.path("x.pam")], naming: truncated)
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.pam")))
    }

    @Test(arguments: ["pngsuite/png/xcrn0g04.png", "pngsuite/png/xhdn0g08.png", "pngsuite/png/xs1n0g01.png",
                      "pngsuite/png/xd0n2c08.png"])
    func corruptFilesAreReportedByName(name: String) async throws {
        let path = TestCorpus.path(name)
        try await expectOneLineFailure(["info", path], naming: path)
    }

    /// Malformed GIFs from image-gif's crash and stall tests: decoded or rejected, never a crash or a hang.
    @Test(arguments: ["gif/crashtest/issue-117-out-of-range.gif", "gif/crashtest/issue-96-small-codesize.gif",
                      "gif/crashtest/issue-96-small-codesize-2.gif", "gif/regression/issue-208-block-type.gif",
                      "gif/regression/issue-209-extension-block-type.gif", "gif/stall/issue-101-infinite-empty-loop.gif"])
    func malformedGIFsNeverCrashOrHang(name: String) async throws {
        let path = TestCorpus.path(name)
        let result = try await CLIRunner.run(["info", path, "--json"], timeout: 60)
        #expect(result.exitedNormally)
        #expect(result.status == 0 || result.status == 1)
        if result.status == 1 {
            #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("webimage: \(path): "))
        }
    }

    /// A GIF whose header claims 20000×20000 (400 MP) is refused before any pixel memory is allocated.
    @Test func tooManyPixels() async throws {
        let dir = try TemporaryDirectory()
        let huge = dir.path("huge.gif")
        let size: [UInt8] = [0x20, 0x4E, 0x20, 0x4E]  // 20000, 20000 little-endian
        let bytes = Array("GIF89a".utf8) + size + [0, 0, 0] + [0x2C, 0, 0, 0, 0] + size + [0]
            + [0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        try Data(bytes).write(to: URL(fileURLWithPath: huge))
        let line = try await expectOneLineFailure(["info", huge], naming: huge)
        #expect(line.hasSuffix("too many pixels: 20000x20000 is over the limit of 100000000 pixels per frame"))
    }

    @Test func unwritableOutput() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("no-such-dir/x.pam")
        let line = try await expectOneLineFailure(["decode", CLITestPaths.testWebP, "-o", out], naming: out)
        #expect(line.hasSuffix("cannot write: No such file or directory"))
    }

    @Test func unknownFormatOption() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("x.img")
        let line = try await expectOneLineFailure(["convert", CLITestPaths.testWebP, out, "--format", "tga"], naming: out)
        #expect(line.contains("unknown --format 'tga'"))
    }

    @Test func unknownOutputExtension() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("x.xyz")
        try await expectOneLineFailure(["decode", CLITestPaths.testWebP, "-o", out], naming: out)
        try await expectOneLineFailure(["convert", CLITestPaths.testWebP, out], naming: out)
    }

    @Test func badOptionValues() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("x.jpg")
        try await expectOneLineFailure(["convert", CLITestPaths.testWebP, out, "--quality", "7"], naming: out)
        try await expectOneLineFailure(["convert", CLITestPaths.testWebP, out, "--max-file-size", "0"], naming: out)
        try await expectOneLineFailure(["decode", CLITestPaths.testWebP, "-o", dir.path("x.pam"), "--frame=-1"],
                                 naming: CLITestPaths.testWebP)
    }

    @Test func frameOutOfRange() async throws {
        let dir = try TemporaryDirectory()
        let line = try await expectOneLineFailure(["decode", CLITestPaths.moonGIF, "-o", dir.path("x.pam"), "--frame", "14"],
                                            naming: CLITestPaths.moonGIF)
        #expect(line.hasSuffix("frame 14 out of range (the image has 14)"))
    }

    /// Bad option values are one-line failures too (``OptionValueTests``); only a malformed line is the parser's.
    @Test func malformedSyntaxIsRejectedByTheParser() async throws {
        for arguments in [["decode", CLITestPaths.testWebP], ["info"], ["bogus-command"]] {
            let result = try await CLIRunner.run(arguments, timeout: 60)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("Usage:") || result.stderr.contains("Error:"), "\(arguments)")
        }
    }
}
