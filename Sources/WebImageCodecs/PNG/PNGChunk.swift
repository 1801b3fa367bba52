import WebImageCore

/// One chunk of a PNG stream, located by offsets into the file's bytes.
struct PNGChunk {
    /// The chunk type as its four ASCII bytes read big-endian (see ``PNGChunkType``).
    let type: UInt32
    /// Offset of the chunk's length field.
    let offset: Int
    /// Bytes of chunk data.
    let length: Int

    /// Where the chunk's data lies.
    var dataRange: Range<Int> { offset + 8 ..< offset + 8 + length }
    /// Where the whole chunk (length, type, data, CRC) lies.
    var range: Range<Int> { offset ..< end }
    /// Offset just past the chunk's CRC.
    var end: Int { offset + 12 + length }

    /// Whether the stored CRC matches the chunk's type and data.
    func hasValidCRC(in bytes: UnsafeRawBufferPointer) -> Bool {
        var crc = PNGCRC()
        crc.update(UnsafeRawBufferPointer(rebasing: bytes[offset + 4 ..< offset + 8 + length]))
        return crc.checksum == bytes.bigEndianUInt32(at: offset + 8 + length)
    }
}

/// The chunk types this coder reads or writes.
enum PNGChunkType {
    static let IHDR: UInt32 = 0x4948_4452
    static let PLTE: UInt32 = 0x504C_5445
    static let IDAT: UInt32 = 0x4944_4154
    static let IEND: UInt32 = 0x4945_4E44
    static let tRNS: UInt32 = 0x7452_4E53
    static let acTL: UInt32 = 0x6163_544C
    static let fcTL: UInt32 = 0x6663_544C
    static let fdAT: UInt32 = 0x6664_4154
    static let eXIf: UInt32 = 0x6558_4966
    static let iTXt: UInt32 = 0x6954_5874
    static let pHYs: UInt32 = 0x7048_5973
}

/// Walks the chunks of a PNG stream after its signature.
///
/// Only the framing is checked here (lengths and bounds); CRCs are checked by whoever uses a chunk.
struct PNGChunkIterator {
    private let bytes: UnsafeRawBufferPointer
    /// Offset of the next chunk: just past the last one returned.
    private(set) var offset: Int

    /// Starts at the first chunk, or at `offset` (a chunk boundary an earlier walk stopped at).
    init(_ bytes: UnsafeRawBufferPointer, from offset: Int = PNGSignature.bytes.count) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next chunk; nil when the bytes end exactly at a chunk boundary. Throws `.truncated` when a chunk
    /// is cut off and `.corrupt` when its length is over PNG's 2³¹−1 limit.
    mutating func next() throws -> PNGChunk? {
        guard offset < bytes.count else { return nil }
        guard bytes.count - offset >= 12 else { throw WebImageError.badImageData(.truncated) }
        let length = Int(bytes.bigEndianUInt32(at: offset))
        guard length <= Int(Int32.max) else { throw WebImageError.badImageData(.corrupt("chunk length \(length) is over the PNG limit")) }
        guard bytes.count - offset - 12 >= length else { throw WebImageError.badImageData(.truncated) }
        let chunk = PNGChunk(type: bytes.bigEndianUInt32(at: offset + 4), offset: offset, length: length)
        offset = chunk.end
        return chunk
    }
}

/// PNG's eight-byte file signature.
enum PNGSignature {
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with the signature (or with as much of it as they hold, when `allowPrefix`).
    static func matches(_ bytes: UnsafeRawBufferPointer, allowPrefix: Bool = false) -> Bool {
        let count = min(bytes.count, Self.bytes.count)
        guard count == Self.bytes.count || (allowPrefix && count > 0) else { return false }
        return (0..<count).allSatisfy { bytes[$0] == Self.bytes[$0] }
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit value at `offset` (no alignment needed).
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit value at `offset`.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
