import Foundation
import TestSupport
import Testing
import WebImage

/// A file whose colour is premultiplied by alpha (`avifenc --premultiply` signals it with `prem`) decodes to
/// straight alpha, like every other image.
@Suite struct AVIFPremultipliedAlphaTests {
    /// Opaque-to-half-transparent columns over a colour gradient.
    static let pixels = PixelBuffer(width: 32, height: 8) { out in
        for y in 0..<8 {
            for x in 0..<32 {
                let i = (y * 32 + x) * 4
                out[i] = UInt8(40 + x * 6)
                out[i + 1] = UInt8(200 - y * 10)
                out[i + 2] = 90
                out[i + 3] = UInt8(255 - x * 4)
            }
        }
    }

    @Test func premultipliedFileDecodesToStraightAlpha() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("in.png"), avif = dir.appendingPathComponent("out.avif")
        try PNGCoder().encode(Image(pixels: Self.pixels), as: .png, options: .init()).write(to: png)
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/avifenc"),
                                         ["--lossless", "--premultiply", png.path, avif.path])
        process.waitUntilExit()
        #expect(process.termination == .exited(0))

        let decoded = try AVIFCoder().decode(try Data(contentsOf: avif), options: .init())
        #expect(decoded.hasAlpha)
        // Alpha is stored as is; colour went through premultiply and back, so it may differ by rounding.
        for (index, value) in decoded.pixels.bytes.enumerated() {
            let expected = Self.pixels.bytes[index]
            #expect(abs(Int(value) - Int(expected)) <= (index % 4 == 3 ? 0 : 2), "byte \(index)")
        }
    }
}
