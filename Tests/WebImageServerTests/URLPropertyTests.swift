import Foundation
import Testing
import TestSupport

/// Generated URLs (ports out of range, IPv4 and IPv6 spellings, zones, user information, escapes, long parts,
/// and each as a redirect target) through the downloader, the manager and the service, in a child process so
/// that a trap fails this test instead of ending the test runner. The child runs in a network namespace of its
/// own with nothing but loopback (`unshare -rn`): a wrong check could not reach past this machine.
@Suite struct URLPropertyTests {
    private static let count = 400

    @Test(arguments: [UInt64(1), 2, 3])
    func generatedURLsEndInTypedErrorsNeverATrap(seed: UInt64) async throws {
        let run = try await ChildProcess.loopbackOnly(try BuiltExecutable.url("URLPropertyChild").path,
                                                  arguments: ["\(seed)", "\(Self.count)"],
                                                  timeout: 600)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let lastURL = lines.last { $0.hasPrefix("url ") } ?? "(none)"
        #expect(run.exitedNormally && run.status == 0, "the child died (\(run.status)) at \(lastURL); stderr: \(run.stderr.suffix(2000))")
        #expect(lines.last == "done \(Self.count)", "last URL: \(lastURL)")

        var verdicts: [Int: String] = [:]
        var answered = 0, invalid = 0, redirectedInvalid = 0
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count >= 3, let index = Int(fields[1]) else { continue }
            switch fields[0] {
            case "url":
                verdicts[index] = fields[2]
            case "answered":
                answered += 1
                let values = Self.values(fields.dropFirst(2).joined(separator: " "))
                #expect(["ok", "unparsed"].contains(values["downloader"]) || Int(values["downloader"] ?? "") != nil, "\(line)")
                #expect(values["manager"] == "ok" || Int(values["manager"] ?? "") != nil, "\(line)")
                if verdicts[index] == "invalid" {
                    invalid += 1
                    #expect(values["downloader"] == "1000" && values["manager"] == "1000", "\(line)")
                    #expect(values["service"] == "400", "\(line)")
                }
            case "redirected":
                let values = Self.values(fields.dropFirst(2).joined(separator: " "))
                if verdicts[index] == "invalid" {
                    redirectedInvalid += 1
                    #expect(values["downloader"] == "1000", "\(line)")
                    #expect(values["service"] == "404", "\(line)")
                }
            default:
                continue
            }
        }
        #expect(answered == Self.count)
        // The generator's mix: many invalid URLs, directly and as redirect targets.
        #expect(invalid > Self.count / 10 && redirectedInvalid > Self.count / 20, "\(invalid) \(redirectedInvalid)")
    }

    private static func values(_ text: String) -> [String: String] {
        Dictionary(text.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    }
}
