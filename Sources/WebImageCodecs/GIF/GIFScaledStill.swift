import WebImageCore

/// Decodes a GIF's first frame, composited onto its transparent screen, straight to a smaller size: each
/// screen row goes through a ``RowResampler`` as giflib decodes it, so the full-size screen is never held.
///
/// A non-interlaced frame's rows arrive top to bottom and need one row of palette indices. An interlaced
/// frame sends its even rows first (passes 1–3) and then its odd rows in order (pass 4): the even rows are
/// kept as indices until the odd row after each arrives, half a byte per pixel where the screen would take
/// four. The pixels are those of painting the full screen and resampling it.
enum GIFScaledStill {
    /// The frame `header` (just read by `reader`) on a `screen`-sized canvas, resampled to `target`.
    static func decode(_ reader: GIFReader, header: GIFFrameHeader, screen: PixelSize,
                       target: PixelSize, kernel: Resampler.Kernel) throws -> PixelBuffer {
        var rows = GIFScreenRows(header: header, screen: screen,
                                 resampler: RowResampler(sourceSize: screen, targetSize: target, format: .rgba8,
                                                         kernel: kernel))
        let width = header.width, height = header.height
        guard width > 0, height > 0 else {
            try reader.skipPixels()
            return rows.finish()
        }
        var line = [UInt8](repeating: 0, count: width)
        if header.isInterlaced {
            // Even rows (passes 1–3) wait here until the odd row below each arrives in pass 4.
            var evenRows = [UInt8](repeating: 0, count: (height + 1) / 2 * width)
            let order = GIFInterlace(height: height, isInterlaced: true)
            for fileRow in 0..<height {
                let row = order.displayRow(fileRow)
                if row.isMultiple(of: 2) {
                    let start = row / 2 * width
                    try evenRows.withUnsafeMutableBufferPointer {
                        try reader.readLine(into: UnsafeMutableBufferPointer(rebasing: $0[start ..< start + width]), width: width)
                    }
                } else {
                    try line.withUnsafeMutableBufferPointer { try reader.readLine(into: $0, width: width) }
                    let start = (row - 1) / 2 * width
                    evenRows.withUnsafeBufferPointer { rows.paint(frameRow: row - 1, UnsafeBufferPointer(rebasing: $0[start ..< start + width])) }
                    line.withUnsafeBufferPointer { rows.paint(frameRow: row, $0) }
                }
            }
            if !height.isMultiple(of: 2) {
                let start = (height - 1) / 2 * width
                evenRows.withUnsafeBufferPointer { rows.paint(frameRow: height - 1, UnsafeBufferPointer(rebasing: $0[start ..< start + width])) }
            }
        } else {
            for row in 0..<height {
                try line.withUnsafeMutableBufferPointer { try reader.readLine(into: $0, width: width) }
                line.withUnsafeBufferPointer { rows.paint(frameRow: row, $0) }
            }
        }
        return rows.finish()
    }
}

/// Hands a one-frame screen to a resampler row by row: transparent rows above and below the frame, and
/// each frame row painted as ``GIFCanvas`` paints it (clipped, the transparent index left transparent).
struct GIFScreenRows {
    private let header: GIFFrameHeader
    private let area: ClipArea
    private let screen: PixelSize
    private let resampler: RowResampler
    /// One screen row of packed RGBA words.
    private var words: [UInt32]

    init(header: GIFFrameHeader, screen: PixelSize, resampler: RowResampler) {
        self.header = header
        self.screen = screen
        self.resampler = resampler
        area = ClipArea(frame: header, screen: screen)
        words = [UInt32](repeating: 0, count: screen.width)
    }

    /// Paints frame row `frameRow` (display order, rows in increasing order) from its palette indices.
    mutating func paint(frameRow: Int, _ indices: UnsafeBufferPointer<UInt8>) {
        let y = header.top + frameRow
        guard y >= area.minY, y < area.maxY else { return }
        feedTransparentRows(upTo: y)
        let minX = area.minX, count = area.maxX - area.minX, offset = area.minX - header.left
        let transparent = header.transparentIndex
        words.withUnsafeMutableBufferPointer { row in
            row.update(repeating: 0)
            header.palette.words.withUnsafeBufferPointer { colors in
                for i in 0..<count {
                    let index = indices[offset + i]
                    if index != transparent { row[minX + i] = colors[Int(index)] }
                }
            }
        }
        words.withUnsafeBytes { resampler.consume($0) }
    }

    /// Feeds the rows left below the frame and returns the resampled screen.
    mutating func finish() -> PixelBuffer {
        feedTransparentRows(upTo: screen.height)
        return resampler.finish()
    }

    private mutating func feedTransparentRows(upTo y: Int) {
        guard resampler.nextRow < y else { return }
        words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        while resampler.nextRow < y { words.withUnsafeBytes { resampler.consume($0) } }
    }
}
