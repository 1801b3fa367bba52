import WebImageCore

/// Lays out an animation's quantised full-screen frames as GIF records that store only what changes.
///
/// Each frame after the first is cropped to the rectangle where its colours differ from the frame before
/// (pixels the decoder keeps from the previous frame need not be stored), with a colour table of just the
/// colours that rectangle uses. GIF cannot turn an opaque pixel transparent by drawing over it, so when a
/// frame has such a pixel, the frame before it is written full screen with disposal 2 (clear to
/// transparent) and this one is drawn onto the cleared screen.
/// Decoding the result reproduces every quantised frame exactly.
enum GIFFrameOptimizer {
    static func records(for frames: [GIFIndexedFrame], size: PixelSize, delays: [Int]) -> [GIFWriterFrame] {
        let colors = frames.map { rendered($0) }
        // needsClear[i]: frame i makes some opaque pixel of frame i - 1 transparent.
        let needsClear = colors.indices.map { i in
            i > 0 && zip(colors[i - 1], colors[i]).contains { old, new in old != 0 && new == 0 }
        }
        return frames.indices.map { i in
            let clearsAfter = i + 1 < frames.count && needsClear[i + 1]
            var record = GIFWriterFrame(width: size.width, height: size.height, colors: frames[i].colors,
                                        indices: frames[i].indices, transparentIndex: frames[i].transparentIndex,
                                        disposal: clearsAfter ? 2 : 1, delayCentiseconds: delays[i])
            if i > 0, !needsClear[i], !clearsAfter {
                let changed = changedArea(from: colors[i - 1], to: colors[i], width: size.width)
                crop(&record, to: changed, screenWidth: size.width)
                compactPalette(&record)
            }
            return record
        }
    }

    /// Each pixel's displayed colour: its palette word (never 0, alpha is 255), or 0 for the transparent index.
    private static func rendered(_ frame: GIFIndexedFrame) -> [UInt32] {
        let palette = frame.colors.enumerated().map { i, color in
            i == frame.transparentIndex ? 0 : GIFPalette.word(color.red, color.green, color.blue)
        }
        return frame.indices.map { palette[Int($0)] }
    }

    /// The bounding box (x, y, width, height) of the pixels that differ; a 1×1 box when none do.
    private static func changedArea(from old: [UInt32], to new: [UInt32], width: Int) -> (Int, Int, Int, Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for i in old.indices where old[i] != new[i] {
            let x = i % width, y = i / width
            (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
        }
        guard maxX >= 0 else { return (0, 0, 1, 1) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Keeps only the palette entries the record's pixels use, so a small changed area carries a small table.
    private static func compactPalette(_ record: inout GIFWriterFrame) {
        guard let colors = record.colors else { return }
        var newIndex = [Int](repeating: -1, count: colors.count)
        var kept: [GIFColor] = []
        for i in record.indices.indices {
            let old = Int(record.indices[i])
            if newIndex[old] < 0 {
                newIndex[old] = kept.count
                kept.append(colors[old])
            }
            record.indices[i] = UInt8(newIndex[old])
        }
        record.colors = kept
        record.transparentIndex = record.transparentIndex.flatMap { newIndex[$0] >= 0 ? newIndex[$0] : nil }
    }

    private static func crop(_ record: inout GIFWriterFrame, to area: (x: Int, y: Int, width: Int, height: Int),
                             screenWidth: Int) {
        var indices: [UInt8] = []
        indices.reserveCapacity(area.width * area.height)
        for y in area.y..<area.y + area.height {
            let start = y * screenWidth + area.x
            indices.append(contentsOf: record.indices[start..<start + area.width])
        }
        (record.left, record.top, record.width, record.height) = (area.x, area.y, area.width, area.height)
        record.indices = indices
    }
}
