import WebImageCore

/// An ICO file's directory: the images it holds, each a PNG stream or a DIB (a BMP without its file header, its
/// height doubled to cover the AND mask that follows the colour pixels).
struct ICODirectory {
    struct Entry {
        /// Size as the directory states it (0 in the file means 256).
        var width: Int
        var height: Int
        var bitCount: Int
        var offset: Int
        var length: Int

        var pixelCount: Int { width * height }
    }

    var entries: [Entry]

    static let headerSize = 6, entrySize = 16
    /// The most entries read: a 16-bit count could otherwise ask for a megabyte of directory.
    static let maxEntries = 512

    /// Whether the bytes start like an icon: reserved 0, type 1, a count of 1…``maxEntries``.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= headerSize, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0 else { return false }
        return (1...maxEntries).contains(Int(bytes.littleEndianUInt16(at: 4)))
    }

    /// Reads the directory; entries whose data lies outside the bytes are an error (the file is cut short).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> ICODirectory {
        guard !bytes.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard bytes.count >= headerSize else { throw WebImageError.badImageData(.truncated) }
        guard hasSignature(bytes) else { throw WebImageError.badImageData(.corrupt("not an ICO file")) }
        let count = Int(bytes.littleEndianUInt16(at: 4))
        guard bytes.count >= headerSize + count * entrySize else { throw WebImageError.badImageData(.truncated) }
        let entries = try (0..<count).map { index in
            let at = headerSize + index * entrySize
            let entry = Entry(width: bytes[at] == 0 ? 256 : Int(bytes[at]), height: bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1]),
                              bitCount: Int(bytes.littleEndianUInt16(at: at + 6)),
                              offset: Int(bytes.littleEndianUInt32(at: at + 12)),
                              length: Int(bytes.littleEndianUInt32(at: at + 8)))
            guard entry.length > 0, entry.offset >= headerSize + count * entrySize else {
                throw WebImageError.badImageData(.corrupt("ICO entry \(index) at \(entry.offset), \(entry.length) bytes"))
            }
            guard entry.offset <= bytes.count, entry.length <= bytes.count - entry.offset else {
                throw WebImageError.badImageData(.truncated)
            }
            return entry
        }
        return ICODirectory(entries: entries)
    }

    /// The entry to decode: the largest (then the deepest), or with a thumbnail size the smallest entry at least
    /// that large on both sides (the largest when none is).
    func entry(for thumbnail: PixelSize?) -> Entry {
        let byQuality = entries.sorted { ($0.pixelCount, $0.bitCount) < ($1.pixelCount, $1.bitCount) }
        if let thumbnail, let fitting = byQuality.first(where: { $0.width >= thumbnail.width && $0.height >= thumbnail.height }) {
            return fitting
        }
        return byQuality.last!
    }
}
