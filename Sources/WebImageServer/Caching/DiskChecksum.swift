import CDeflate
import Foundation
import WebImageRedis

/// The checksum at the start of a checked disk entry's extended data: `crc1` and the CRC-32 of the entry's bytes
/// (little-endian). CRC-32 finds the disk errors and torn copies it is there for at libdeflate's 15 GB/s, where
/// SHA-256 cost 6 ms for a 7 MB source on every store and hit; entries stored before carry the first 16 bytes of
/// their SHA-256 (``ValueChecksum``) and are still read.
enum DiskChecksum {
    private static let marker = Array("crc1".utf8)
    private static let size = marker.count + 4

    /// What goes before an entry's own extended data.
    static func stamp(_ data: Data) -> Data {
        var crc = crc32(data).littleEndian
        return Data(marker) + withUnsafeBytes(of: &crc) { Data($0) }
    }

    /// The extended data after the checksum, when `stored` starts with a checksum `data` matches; else nil.
    static func verified(_ stored: Data, of data: Data) -> Data? {
        if stored.count >= size, stored.starts(with: marker) {
            let value = stored.dropFirst(marker.count).prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return value == crc32(data) ? Data(stored.dropFirst(size)) : nil
        }
        guard stored.count >= ValueChecksum.size,
              stored.prefix(ValueChecksum.size).elementsEqual(ValueChecksum.of(data)) else { return nil }
        return Data(stored.dropFirst(ValueChecksum.size))
    }

    private static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }
}
