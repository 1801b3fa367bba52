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
        let low: UInt64, high: UInt64
        if count > 16 {
            var offset = 0
            while count - offset > 16 {
                state = mix(word(bytes, offset) ^ first, word(bytes, offset + 8) ^ state)
                offset += 16
            }
            // The last 16 bytes, overlapping what was already mixed: no byte-by-byte tail.
            low = word(bytes, count - 16)
            high = word(bytes, count - 8)
        } else if count >= 8 {
            low = word(bytes, 0)
            high = word(bytes, count - 8)
        } else if count >= 4 {
            low = UInt64(halfWord(bytes, 0)) << 32 | UInt64(halfWord(bytes, count - 4))
            high = 0
        } else if count > 0 {
            low = UInt64(bytes[0]) << 16 | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1])
            high = 0
        } else {
            low = 0
            high = 0
        }
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

    private static func halfWord(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
