import Foundation
import Testing
import TestSupport

/// Hostile AVIF and HEIC files (a 12000 × 12000 `ispe` around a small stream: a few KB claiming 144 MP) are
/// refused from the container by every command, with one error line, in bounded time and memory measured in
/// the child process.
@Suite struct ModernFormatBombTests {
    /// `source` with every `ispe` box declaring 12000 × 12000.
    private static func bomb(_ source: String, to path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let tag = Array("ispe".utf8)
        for index in 4..<(bytes.count - 16) where Array(bytes[index..<index + 4]) == tag {
            for offset in [8, 12] {
                let value = UInt32(12_000)
                for i in 0..<4 { bytes[index + offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["avif/still_picture.avif", "heif/colors-with-alpha.heic"])
    func hugeDeclaredSizeIsRefusedByEveryCommand(source: String) async throws {
        let dir = try TemporaryDirectory()
        let ext = (source as NSString).pathExtension
        let path = dir.path("bomb.\(ext)")
        try Self.bomb(TestCorpus.path(source), to: path)
        let baseline = try await MeasuredRun.baselineMB()
        let line = "webimage: \(path): too many pixels: 12000x12000 is over the limit of 100000000 pixels per frame"
        for arguments in [["info", path], ["decode", path, "-o", dir.path("out.pam")],
                          ["decode", path, "-o", dir.path("t.pam"), "--thumbnail", "64x64"],
                          ["convert", path, dir.path("out.png")]] {
            let result = try await MeasuredRun.run(arguments, timeout: 60)
            #expect(result.signal == nil, "\(arguments)")
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines == [line], "\(arguments)")
            #expect(result.peakMB < baseline + 16, "\(arguments): peak \(result.peakMB) MB over a \(baseline) MB baseline")
            #expect(result.seconds < 10, "\(arguments) took \(result.seconds) s")
        }
    }
}
