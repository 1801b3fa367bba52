/// Builds a PNG byte stream chunk by chunk, computing each chunk's CRC.
struct PNGChunkWriter {
    private(set) var bytes: [UInt8]

    /// A stream that starts with the PNG signature, with room reserved for about `capacity` bytes.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity + PNGSignature.bytes.count)
        bytes.append(contentsOf: PNGSignature.bytes)
    }

    /// Appends a chunk of `type` whose data is the concatenation of `parts`.
    mutating func append(_ type: UInt32, _ parts: [UnsafeRawBufferPointer]) {
        let length = parts.reduce(0) { $0 + $1.count }
        appendBigEndian(UInt32(length))
        let typeStart = bytes.count
        appendBigEndian(type)
        for part in parts { bytes.append(contentsOf: part) }
        var crc = PNGCRC()
        bytes.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[typeStart...])) }
        appendBigEndian(crc.checksum)
    }

    /// Appends a chunk of `type` with `data`.
    mutating func append(_ type: UInt32, _ data: [UInt8]) {
        data.withUnsafeBytes { append(type, [$0]) }
    }

    /// Appends bytes that already form whole chunks (copied from another stream, CRCs included).
    mutating func appendRaw(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
    }

    /// Appends a big-endian 32-bit value.
    mutating func appendBigEndian(_ value: UInt32) {
        bytes.appendBigEndian(value)
    }
}

extension Array where Element == UInt8 {
    /// Appends a big-endian 32-bit value.
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends a big-endian 16-bit value.
    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }
}
