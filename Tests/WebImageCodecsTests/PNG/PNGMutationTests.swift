import Foundation
import Testing
import WebImage

/// Randomly damaged files (with their CRCs re-stamped, so the damage reaches the parsers) end in an image or a
/// `WebImageError`, through every entry point, never a crash.
@Suite struct PNGMutationTests {
    /// A deterministic generator, so a failure can be replayed.
    struct LCG: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func mutated(_ seed: Data, using rng: inout LCG) -> Data {
        var bytes = [UInt8](seed)
        for _ in 0..<Int.random(in: 1...3, using: &rng) where bytes.count > 9 {
            let i = Int.random(in: 8..<bytes.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
            case 1: bytes[i] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            default: bytes.removeSubrange(i...)
            }
        }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(PNGTestBytes.bigEndian(bytes, offset))
            guard length <= bytes.count - offset - 12 else { break }
            let crc = PNGTestBytes.crc(Array(bytes[offset + 4 ..< offset + 8 + length]))
            bytes.replaceSubrange(offset + 8 + length ..< offset + 12 + length, with: PNGTestBytes.be32(crc))
            offset += 12 + length
        }
        return Data(bytes)
    }


    @Test(arguments: ["apng", "basi3p02", "basn6a16", "tbbn0g04"])
    func damagedFilesFailCleanly(seedName: String) throws {
        let seed = seedName == "apng" ? try APNGTests.animation()
            : try Data(contentsOf: PNGSuiteTests.folder.appendingPathComponent("png/\(seedName).png"))
        var rng = LCG(state: 42)
        for round in 0..<60 {
            let data = Self.mutated(seed, using: &rng)
            #expect(endsInResultOrTypedError { _ = try PNGCoder().decode(data, options: .init()) }, "round \(round)")
            #expect(endsInResultOrTypedError {
                let decoder = try PNGCoder().makeAnimatedDecoder(data, options: .init())
                for index in (0..<decoder.frameCount).reversed() { _ = try decoder.frame(at: index) }
            }, "round \(round)")
            #expect(endsInResultOrTypedError {
                let decoder = PNGCoder().makeProgressiveDecoder(options: .init())
                for length in stride(from: 200, to: data.count, by: 200) {
                    _ = try decoder.decode(data.prefix(length), isFinished: false)
                }
                _ = try decoder.decode(data, isFinished: true)
            }, "round \(round)")
        }
    }
}
