/// Bounds-checked reads of ISO base media file format boxes (HEIF, AVIF, the JPEG XL container) over borrowed
/// bytes: every read past the end, every size field that overflows or points outside its parent, reads as nil,
/// so a hostile file costs one pass over the box headers it names and nothing else.
struct ISOBMFFBoxes {
    /// One box: its four-character type and where its payload lies in the bytes.
    struct Box {
        var type: String
        var payload: Range<Int>
    }

    let bytes: UnsafeRawBufferPointer

    /// The boxes laid end to end in `range`; nil when one is malformed. With `tolerant` (the top level of a
    /// file, whose last box may be cut off) the list ends instead, with a box that runs past the end cut at it.
    func boxes(in range: Range<Int>, tolerant: Bool = false) -> [Box]? {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let (box, cut) = box(at: offset, end: range.upperBound, cuts: tolerant) else {
                return tolerant ? result : nil
            }
            result.append(box)
            if cut { break }
            offset = box.payload.upperBound
        }
        return result
    }

    /// The boxes after the first `skip` bytes of `box`'s payload (a full box's version and flags, a count):
    /// none when the payload is shorter.
    func children(of box: Box, skipping skip: Int = 0) -> [Box]? {
        boxes(in: min(box.payload.lowerBound + skip, box.payload.upperBound)..<box.payload.upperBound)
    }

    /// The first box of `type` in `range`.
    func first(_ type: String, in range: Range<Int>) -> Box? {
        boxes(in: range)?.first { $0.type == type }
    }

    /// The box at `offset`: size 0 runs to `end`, size 1 has a 64-bit size after the type; nil when it claims
    /// less than its own header, or more than `end` leaves unless `cuts` (then it is cut at `end`).
    private func box(at offset: Int, end: Int, cuts: Bool) -> (box: Box, cut: Bool)? {
        guard let size32 = u32(offset, end: end), let type = fourCC(offset + 4, end: end) else { return nil }
        var headerSize = 8, size = size32
        if size32 == 1 {
            guard let high = u32(offset + 8, end: end), let low = u32(offset + 12, end: end), high < 1 << 31 else {
                return nil
            }
            size = high << 32 | low
            headerSize = 16
        } else if size32 == 0 {
            size = end - offset
        }
        guard size >= headerSize else { return nil }
        let (boxEnd, overflow) = offset.addingReportingOverflow(size)
        if !overflow, boxEnd <= end { return (Box(type: type, payload: offset + headerSize..<boxEnd), false) }
        return cuts ? (Box(type: type, payload: offset + headerSize..<end), true) : nil
    }

    func u8(_ at: Int, end: Int) -> Int? {
        at >= 0 && at < min(end, bytes.count) ? Int(bytes[at]) : nil
    }

    func u16(_ at: Int, end: Int) -> Int? {
        guard let high = u8(at, end: end), let low = u8(at + 1, end: end) else { return nil }
        return high << 8 | low
    }

    func u32(_ at: Int, end: Int) -> Int? {
        guard let high = u16(at, end: end), let low = u16(at + 2, end: end) else { return nil }
        return high << 16 | low
    }

    /// A 16-bit field, or a 32-bit one when `wide` (item IDs and counts grow with a box's version).
    func u16or32(_ at: Int, end: Int, wide: Bool) -> Int? {
        wide ? u32(at, end: end) : u16(at, end: end)
    }

    func fourCC(_ at: Int, end: Int) -> String? {
        guard at >= 0, at + 4 <= min(end, bytes.count) else { return nil }
        return String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }
}
