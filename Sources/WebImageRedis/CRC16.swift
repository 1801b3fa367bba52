/// Redis Cluster's key slots: CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the key, or of its hash
/// tag, modulo 16,384 — as the cluster specification defines them, so every client and server agree.
public enum RedisClusterSlot {
    /// Slots in a cluster.
    public static let count = 16_384

    /// The slot of `key`: the hash tag is what lies between the first `{` and the first `}` after it, when that
    /// is not empty (`{user1000}.following` and `{user1000}.followers` share a slot); otherwise the whole key.
    public static func slot(for key: some Collection<UInt8>) -> Int {
        let bytes = Array(key)
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")),
           let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1 {
            return Int(CRC16.checksum(bytes[(open + 1)..<close])) & (count - 1)
        }
        return Int(CRC16.checksum(bytes)) & (count - 1)
    }

    /// ``slot(for:)`` of a key's UTF-8.
    public static func slot(for key: String) -> Int {
        slot(for: Array(key.utf8))
    }
}

/// CRC16/XMODEM, table-driven.
enum CRC16 {
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt16 {
        bytes.reduce(UInt16(0)) { crc, byte in (crc << 8) ^ table[Int(UInt8(crc >> 8) ^ byte)] }
    }

    private static let table: [UInt16] = (0..<256).map { index in
        (0..<8).reduce(UInt16(index) << 8) { crc, _ in crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    }
}
