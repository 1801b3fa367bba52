import WebImage

/// Lays out every demo result's thumbnail in a labelled grid (`contact-sheet.png`).
enum ContactSheet {
    /// One result: its thumbnail and up to two label lines.
    struct Cell {
        var thumbnail: PixelBuffer
        var label: [String]
    }

    /// Each thumbnail fits this box; the demo decodes thumbnails at this size.
    static let box = PixelSize(width: 160, height: 120)
    static let columns = 6
    static let padding = 12
    static let lineHeight = BitmapFont.glyphHeight + 3
    static let labelHeight = 2 * lineHeight + 2

    /// The sheet for `cells`: thumbnails centred on a checkerboard in their box, labels in dark grey below.
    static func render(_ cells: [Cell]) -> PixelBuffer {
        let rows = max(1, (cells.count + columns - 1) / columns)
        let cellWidth = box.width + padding, cellHeight = box.height + labelHeight + padding
        var canvas = Canvas(width: columns * cellWidth + padding, height: rows * cellHeight + padding,
                            background: RGB(red: 246, green: 246, blue: 246))
        let ink = RGB(red: 40, green: 40, blue: 40)
        for (index, cell) in cells.enumerated() {
            let left = padding + (index % columns) * cellWidth, top = padding + (index / columns) * cellHeight
            canvas.checkerboard(x: left, y: top, width: box.width, height: box.height)
            canvas.paste(cell.thumbnail, x: left + (box.width - cell.thumbnail.width) / 2,
                         y: top + (box.height - cell.thumbnail.height) / 2)
            for (line, text) in cell.label.prefix(2).enumerated() {
                BitmapFont.draw(String(text.prefix(BitmapFont.capacity(width: box.width))), into: &canvas,
                                x: left, y: top + box.height + 3 + line * lineHeight, color: ink)
            }
        }
        return canvas.pixels
    }
}
