/// The memory cache's key hash: a seeded multiply-fold hash over the key's UTF-8 bytes.
///
/// A cache hit is little more than hashing its key, and Swift's `Hasher` (SipHash) spends about 45 ns on a
/// typical 50-byte URL here, more than a whole `Dictionary` lookup budget. This hash folds 16 bytes per 64×64→128
/// bit multiply (the wyhash construction) in a few nanoseconds. Both multiplicands are mixed with secrets drawn
/// once per process, as Swift's own hashing is seeded, so the bucket of a key can't be predicted from outside
/// and a remote party choosing URLs can't aim them all at one bucket.
enum CacheKeyHash {
    private static let secrets: (UInt64, UInt64, UInt64) = (.random(in: .min ... .max), .random(in: .min ... .max),
                                                           .random(in: .min ... .max))

    /// The hash of `key`'s UTF-8 bytes.
    static func hash(_ key: String) -> UInt64 {
        if let hash = key.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return hash }
        var contiguous = key
        return contiguous.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let (first, second, third) = secrets
        let count = bytes.count
        var state = mix(first ^ UInt64(truncatingIfNeeded: count), second)
        var offset = 0
        while count - offset > 16 {
            state = mix(word(bytes, offset) ^ first, word(bytes, offset + 8) ^ state)
            offset += 16
        }
        let tail = count - offset
        let low = tail >= 8 ? word(bytes, offset) : partialWord(bytes, offset, tail)
        let high = tail > 8 ? partialWord(bytes, offset + 8, tail - 8) : 0
        state = mix(low ^ second, high ^ state ^ third)
        return mix(state ^ first, UInt64(truncatingIfNeeded: count) ^ third)
    }

    /// The 128-bit product of `a` and `b` folded to 64 bits: every input bit reaches every output bit.
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Up to 8 bytes from `offset`, little-endian, zero-extended.
    private static func partialWord(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ length: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<length { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
