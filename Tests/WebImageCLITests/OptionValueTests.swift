import Foundation
import Testing

/// A bad option value (out of range, negative, not a number or size) exits 1 with one line naming the option
/// and the value; only malformed command lines get ArgumentParser's usage text.
@Suite struct OptionValueTests {
    private func expectOneLine(_ arguments: [String], _ expected: String,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await CLIRunner.run(arguments, timeout: 60)
        #expect(result.status == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderrLines == [expected], sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func badDecodeAndConvertValuesNameTheFileTheOptionAndTheValue() async throws {
        let dir = try TemporaryDirectory()
        let input = CLITestPaths.testWebP, pam = dir.path("x.pam"), jpg = dir.path("x.jpg")
        let size = "give WxH, two positive whole numbers (e.g. 200x150)"
        for value in ["0x0", "abc", "-5x10", "400", "0x10"] {
            try await expectOneLine(["decode", input, "-o", pam, "--thumbnail", value],
                                    "webimage: \(input): bad --thumbnail '\(value)': \(size)")
        }
        try await expectOneLine(["decode", input, "-o", pam, "--frame", "-1"],
                                "webimage: \(input): bad --frame '-1': give 0 or more")
        try await expectOneLine(["decode", input, "-o", pam, "--frame", "x"],
                                "webimage: \(input): bad --frame 'x': give 0 or more")
        try await expectOneLine(["decode", input, "-o", pam, "--scale-down-limit", "-1"],
                                "webimage: \(input): bad --scale-down-limit '-1': give a positive whole number of bytes")
        for value in ["-1", "1.5", "high"] {
            try await expectOneLine(["convert", input, jpg, "--quality", value],
                                    "webimage: \(jpg): bad --quality '\(value)': give a number from 0 to 1")
        }
        try await expectOneLine(["convert", input, jpg, "--max-pixel-size", "-5x10"],
                                "webimage: \(jpg): bad --max-pixel-size '-5x10': \(size)")
        try await expectOneLine(["convert", input, jpg, "--max-file-size", "-100"],
                                "webimage: \(jpg): bad --max-file-size '-100': give a positive whole number of bytes")
        #expect(!FileManager.default.fileExists(atPath: pam) && !FileManager.default.fileExists(atPath: jpg))
    }

    @Test func badFetchValuesNameTheOptionAndTheValue() async throws {
        let url = "http://127.0.0.1:9/a.png"
        try await expectOneLine(["fetch", url, "--timeout", "-1"],
                                "webimage: --timeout: bad value '-1': give a positive number of seconds, at most 1e9")
        try await expectOneLine(["fetch", url, "--timeout", "0"],
                                "webimage: --timeout: bad value '0': give a positive number of seconds, at most 1e9")
        try await expectOneLine(["fetch", url, "--quality", "-1"],
                                "webimage: --quality: bad value '-1': give a number from 0 to 1")
        try await expectOneLine(["fetch", url, "--thumbnail", "0x0"],
                                "webimage: --thumbnail: bad value '0x0': give WxH, two positive whole numbers (e.g. 200x150)")
        try await expectOneLine(["fetch", url, "--concurrency", "-2"],
                                "webimage: --concurrency: bad value '-2': give 1 or more")
        try await expectOneLine(["prefetch", url, "--timeout", "soon"],
                                "webimage: --timeout: bad value 'soon': give a positive number of seconds, at most 1e9")
    }

    @Test func cacheTrimTakesANegativeAgeAndRefusesANegativeSize() async throws {
        let dir = try TemporaryDirectory()
        let keep = try await CLIRunner.run(["cache", "trim", "--cache-dir", dir.path("c"), "--max-age", "-1"], timeout: 60)
        #expect(keep.status == 0, "stderr: \(keep.stderr)")
        let path = dir.path("c") + "/default"
        try await expectOneLine(["cache", "trim", "--cache-dir", dir.path("c"), "--max-size", "-1"],
                                "webimage: \(path): bad --max-size '-1': give a byte count of 0 or more")
    }

    @Test func malformedCommandLinesKeepTheUsageText() async throws {
        let dir = try TemporaryDirectory()
        for arguments in [["decode", CLITestPaths.testWebP], ["info"], ["bogus-command"],
                          ["info", CLITestPaths.testWebP, "--no-such-option"],
                          ["decode", CLITestPaths.testWebP, "-o", dir.path("x.pam"), "--thumbnail"]] {
            let result = try await CLIRunner.run(arguments, timeout: 60)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("Usage:"), "\(arguments)")
        }
    }
}
