import Foundation
import Testing
import TestSupport

/// A few hundred bytes of PNG whose metadata chunk declares a length near 2 GB: libpng allocates and clears a
/// text or metadata chunk's declared length before reading it (a length over its limit is only a warning on
/// read), so such a file took 1.9 GB. Every command now ends it as truncated, in bounded memory and time,
/// measured in the child.
@Suite struct PNGChunkBombTests {
    /// A valid 32×32 grey PNG's signature and IHDR, then `type` declaring 1,953,628,217 bytes of which 64 follow.
    static func bomb(_ type: String) -> Data {
        let header = PNGChunks.file([("IHDR", ZlibZeros.bigEndian(32) + ZlibZeros.bigEndian(32) + [8, 0, 0, 0, 0])])
        // The file without its IEND: signature (8) + IHDR (25).
        var data = Data(header.prefix(33))
        data += ZlibZeros.bigEndian(1_953_628_217) + Array(type.utf8) + [UInt8](repeating: 0x41, count: 64)
        return data
    }

    @Test(arguments: ["iTXt", "zTXt", "tEXt", "iCCP", "eXIf", "sPLT", "pCAL", "sCAL", "prVt"])
    func aHugeDeclaredChunkEndsAsTruncated(type: String) async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("bomb-\(type).png")
        try Self.bomb(type).write(to: URL(fileURLWithPath: path))
        let baseline = try await MeasuredRun.baselineMB()
        for arguments in [["decode", path, "-o", dir.path("out.pam")], ["decode", path, "-o", dir.path("t.pam"), "--thumbnail", "8x8"],
                          ["convert", path, dir.path("out.webp")]] {
            let result = try await MeasuredRun.run(arguments, timeout: 60)
            #expect(result.signal == nil, "\(arguments) died from signal \(result.signal ?? 0)")
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines == ["webimage: \(path): truncated image data"], "\(arguments)")
            #expect(result.peakMB < baseline + 16, "\(arguments): peak \(result.peakMB) MB over a \(baseline) MB baseline")
            #expect(result.seconds < 10, "\(arguments) took \(result.seconds) s")
        }
    }
}
