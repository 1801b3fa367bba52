import Foundation
import Testing

/// `info`, `decode` and `convert` read at most `--max-input-bytes` (default 100 MB) of any input, devices
/// and pipes included, and refuse more with one line and status 1.
@Suite struct InputLimitCommandTests {
    @Test func devZeroIsRefusedAtTheDefaultLimit() async throws {
        let dir = try TemporaryDirectory()
        for arguments in [["info", "/dev/zero"], ["decode", "/dev/zero", "-o", dir.path("x.pam")],
                          ["convert", "/dev/zero", dir.path("x.png")]] {
            // Before the limit, each ran until memory ran out and died from a signal.
            let result = try await CLIRunner.run(arguments, timeout: 120)
            #expect(result.exitedNormally && result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == ["webimage: /dev/zero: larger than the 100000000-byte input limit: "
                                           + "raise it with --max-input-bytes"])
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.pam")))
    }

    @Test func prefetchReadsItsURLListWithinTheLimit() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["prefetch", "--from", "/dev/zero", "--cache-dir", dir.path("c")],
                                             timeout: 120)
        #expect(result.exitedNormally && result.status == 1)
        #expect(result.stderrLines == ["webimage: /dev/zero: larger than the 100000000-byte input limit"])
    }

    @Test func aLowerLimitAppliesToDevicesAndFiles() async throws {
        let result = try await CLIRunner.run(["info", "/dev/urandom", "--max-input-bytes", "100000"], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["webimage: /dev/urandom: larger than the 100000-byte input limit: "
                                       + "raise it with --max-input-bytes"])
        let small = try await CLIRunner.run(["info", CLITestPaths.testWebP, "--max-input-bytes", "1000"], timeout: 60)
        #expect(small.status == 1)
        #expect(small.stderrLines.count == 1 && small.stderrLines[0].contains("1000-byte input limit"))
        let enough = try await CLIRunner.run(["info", CLITestPaths.testWebP, "--max-input-bytes", "100000"], timeout: 60)
        #expect(enough.status == 0, "stderr: \(enough.stderr)")
    }

    @Test func aBadLimitIsOneLine() async throws {
        for value in ["0", "-5", "lots"] {
            let result = try await CLIRunner.run(["info", CLITestPaths.testWebP, "--max-input-bytes", value], timeout: 60)
            #expect(result.status == 1)
            #expect(result.stderrLines == ["webimage: \(CLITestPaths.testWebP): bad --max-input-bytes '\(value)': "
                                           + "give a positive whole number of bytes"])
        }
    }
}
