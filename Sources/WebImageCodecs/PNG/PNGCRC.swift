/// The CRC-32 every PNG chunk ends with (ISO 3309, over the chunk type and data).
///
/// Needed for the chunks this coder builds itself: APNG frames re-framed as standalone PNGs, and the
/// animation chunks it writes.
struct PNGCRC {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var register: UInt32 = 0xFFFF_FFFF

    /// Adds bytes to the checksum.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var c = register
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        }
        register = c
    }

    /// The CRC of everything added so far.
    var checksum: UInt32 { ~register }
}
