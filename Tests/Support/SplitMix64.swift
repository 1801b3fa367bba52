import Foundation

/// SplitMix64: a small deterministic generator, so a randomized test replays and a child process can
/// regenerate exactly the bytes its parent expects.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes of the output of a generator seeded with `seed`, little-endian words in order.
    public static func bytes(count: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 8) {
            let word = generator.next()
            for offset in 0..<min(8, count - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: word >> (8 * offset)) }
        }
        return Data(bytes)
    }
}
