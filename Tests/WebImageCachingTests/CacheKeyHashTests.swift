import TestSupport
import Testing
@testable import WebImage

@Suite("Memory cache key hash")
struct CacheKeyHashTests {
    @Test("equal keys hash equally; 100,000 distinct keys of every length 0…64 never collide")
    func distinctKeys() {
        #expect(CacheKeyHash.hash("https://example.com/a.jpg") == CacheKeyHash.hash("https://example.com/" + "a.jpg"))
        var seen = Set<UInt64>()
        var keys = 0
        for length in 0...64 {
            for variant in 0..<1_540 {
                let digits = String(variant)
                let key = String(repeating: "x", count: max(0, length - digits.count)) + digits
                if key.utf8.count != length { continue }
                seen.insert(CacheKeyHash.hash(key))
                keys += 1
            }
        }
        #expect(keys > 90_000)
        #expect(seen.count == keys)
    }

    /// Flipping any one input bit should flip about half of the output bits, whatever the key's length, so
    /// the shard (top bits) and the bucket (low bits) both spread.
    @Test("one flipped input bit flips about half the output bits, at every length and position")
    func avalanche() {
        var generator = SplitMix64(seed: 0xA5A5)
        for length in [1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 50, 64] {
            var flipped = 0, trials = 0
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let base = bytes.withUnsafeBytes { CacheKeyHash.hash($0) }
                for bit in 0..<(8 * length) {
                    var changed = bytes
                    changed[bit / 8] ^= 1 << UInt8(bit % 8)
                    let hash = changed.withUnsafeBytes { CacheKeyHash.hash($0) }
                    flipped += (hash ^ base).nonzeroBitCount
                    trials += 1
                }
            }
            let average = Double(flipped) / Double(trials)
            #expect(average > 30 && average < 34, "length \(length): \(average) bits")
        }
    }
}
