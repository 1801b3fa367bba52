import Foundation

/// A read-only, bounds-checked view of an EXIF TIFF structure: the byte order, and IFD0's entries.
///
/// Only IFD0 is walked (its offset and its 12-byte entries must lie inside the bytes); sub-IFDs and the IFD
/// chain are never followed, so a structure with loops or wild offsets costs one pass over at most
/// ``maxEntries`` entries. Anything that does not add up reads as "not EXIF" (nil), never a trap.
struct TIFFStructure {
    /// One IFD0 entry: its tag, type, count and where its value bytes lie (inline or at an offset).
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// Where the 12-byte entry starts.
        let offset: Int
        /// The value's bytes; nil when the type is unknown or the value lies outside the structure.
        let value: Range<Int>?
    }

    /// More entries than this in one IFD is not EXIF a camera or editor writes.
    static let maxEntries = 1_000
    /// Bytes per value of TIFF types 1…13 (0: unknown type).
    private static let typeSizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4]

    let bytes: [UInt8]
    let bigEndian: Bool
    let ifd0: Int
    let entries: [Entry]

    init?(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        guard Self.u16(bytes, 2, bigEndian) == 42, let ifd0 = Self.u32(bytes, 4, bigEndian), ifd0 >= 8,
              let count = Self.u16(bytes, ifd0, bigEndian), count <= Self.maxEntries,
              ifd0 + 2 + count * 12 <= bytes.count else { return nil }
        self.ifd0 = ifd0
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let at = ifd0 + 2 + index * 12
            guard let tag = Self.u16(bytes, at, bigEndian), let type = Self.u16(bytes, at + 2, bigEndian),
                  let count = Self.u32(bytes, at + 4, bigEndian) else { return nil }
            var value: Range<Int>?
            if Int(type) < Self.typeSizes.count, Self.typeSizes[Int(type)] > 0 {
                let (length, overflow) = count.multipliedReportingOverflow(by: Self.typeSizes[Int(type)])
                if !overflow, length <= 4 {
                    value = at + 8 ..< at + 8 + length
                } else if !overflow, let start = Self.u32(bytes, at + 8, bigEndian), start <= bytes.count,
                          length <= bytes.count - start {
                    value = start ..< start + length
                }
            }
            entries.append(Entry(tag: UInt16(tag), type: UInt16(type), count: count, offset: at, value: value))
        }
        self.entries = entries
    }

    /// The first IFD0 entry with `tag`.
    func entry(_ tag: UInt16) -> Entry? {
        entries.first { $0.tag == tag }
    }

    static func u16(_ bytes: [UInt8], _ at: Int, _ bigEndian: Bool) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        return bigEndian ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
    }

    static func u32(_ bytes: [UInt8], _ at: Int, _ bigEndian: Bool) -> Int? {
        guard let first = u16(bytes, at, bigEndian), let second = u16(bytes, at + 2, bigEndian) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }
}
