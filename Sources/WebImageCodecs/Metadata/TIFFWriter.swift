/// Writes a TIFF structure with one IFD of entries (added in increasing tag order) and no next IFD.
struct TIFFWriter {
    private let bigEndian: Bool
    private var entries: [(tag: UInt16, type: UInt16, count: Int, value: [UInt8])] = []

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    mutating func add(tag: UInt16, type: UInt16, count: Int, value: [UInt8]) {
        entries.append((tag, type, count, value))
    }

    var bytes: [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        append16(42, to: &out)
        append32(8, to: &out)
        append16(entries.count, to: &out)
        var dataOffset = 8 + 2 + entries.count * 12 + 4
        var data: [UInt8] = []
        for entry in entries {
            append16(Int(entry.tag), to: &out)
            append16(Int(entry.type), to: &out)
            append32(entry.count, to: &out)
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                append32(dataOffset, to: &out)
                // Values start on a word boundary.
                let padded = entry.value + (entry.value.count % 2 == 1 ? [0] : [])
                data += padded
                dataOffset += padded.count
            }
        }
        append32(0, to: &out)
        return out + data
    }

    private func append16(_ value: Int, to out: inout [UInt8]) {
        let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        out += bigEndian ? bytes : bytes.reversed()
    }

    private func append32(_ value: Int, to out: inout [UInt8]) {
        let bytes = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        out += bigEndian ? bytes : bytes.reversed()
    }
}
