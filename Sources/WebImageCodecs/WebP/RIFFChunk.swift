/// One chunk of a RIFF file, located by offsets into the file's bytes.
struct RIFFChunk {
    /// The chunk's FourCC as its four ASCII bytes read big-endian (see ``WebPChunkType``).
    let type: UInt32
    /// Offset of the chunk's FourCC.
    let offset: Int
    /// Bytes of payload, as the size field says (without the pad byte).
    let length: Int

    /// Where the payload lies.
    var payloadRange: Range<Int> { offset + 8 ..< offset + 8 + length }

    /// The payload within `bytes`, the file the chunk was found in.
    func payload(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[payloadRange])
    }
}

/// The chunk types the WebP readers look for, and VP8X's flags.
enum WebPChunkType {
    static let VP8X: UInt32 = 0x5650_3858
    static let ICCP: UInt32 = 0x4943_4350
    static let EXIF: UInt32 = 0x4558_4946
    static let XMP: UInt32 = 0x584D_5020
    /// Bits of VP8X's flags byte: an `ICCP`, an `EXIF` or an `XMP ` chunk is present.
    static let iccFlag: UInt8 = 0x20, exifFlag: UInt8 = 0x08, xmpFlag: UInt8 = 0x04

    /// The flags byte of an extended WebP (its first chunk VP8X); nil for a simple WebP, bytes that are no WebP
    /// or bytes cut before that chunk ends. As in SDWebImage, metadata counts only when these flags announce it.
    static func extendedFlags(in bytes: UnsafeRawBufferPointer) -> UInt8? {
        guard var chunks = RIFFChunkIterator(webp: bytes), let first = chunks.next(), first.type == VP8X,
              first.length >= 1 else { return nil }
        return bytes[first.payloadRange.lowerBound]
    }
}

/// Walks the chunks of a RIFF `WEBP` file after its 12-byte header, bounds-checked so that it also serves the
/// partial bytes of a download:
/// - the walk ends at the size the RIFF header declares (bytes past it are not part of the file), or at the
///   end of the bytes when they are fewer;
/// - a payload of odd size is followed by a pad byte, not counted in its size field;
/// - a chunk cut off by that end ends the walk: its payload is never handed out.
struct RIFFChunkIterator: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    /// Where the file ends: the RIFF size field's end or the bytes', whichever comes first.
    private let end: Int
    /// Offset of the next chunk; `end` once the walk has ended.
    private var offset = 12

    /// Starts at the first chunk; nil when `bytes` do not open with a `RIFF….WEBP` header.
    init?(webp bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 12, bytes.bigEndianUInt32(at: 0) == 0x5249_4646,  // "RIFF"
              bytes.bigEndianUInt32(at: 8) == 0x5745_4250 else { return nil }  // "WEBP"
        self.bytes = bytes
        end = Swift.min(bytes.count, 8 + Self.size(at: 4, in: bytes))
    }

    /// The next chunk; nil once the walk has ended.
    mutating func next() -> RIFFChunk? {
        guard end - offset >= 8 else { return nil }
        let length = Self.size(at: offset + 4, in: bytes)
        guard end - offset - 8 >= length else {
            offset = end
            return nil
        }
        let chunk = RIFFChunk(type: bytes.bigEndianUInt32(at: offset), offset: offset, length: length)
        offset += 8 + length + length & 1
        return chunk
    }

    /// RIFF's size fields are little-endian 32-bit.
    private static func size(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
