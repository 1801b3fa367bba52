import CGIF

/// A frame's colour table as 256 packed RGBA words (memory order r, g, b, a), ready to store into a canvas.
///
/// Always 256 entries so any 8-bit index is safe: entries past the file's table are opaque black, as
/// browsers show out-of-range indices.
struct GIFPalette: Sendable, Hashable {
    let words: [UInt32]

    /// Opaque black everywhere: what a frame with no colour table at all shows.
    static let black = GIFPalette(colors: [])

    /// A palette from RGB triples; missing entries are opaque black.
    init(colors: [(red: UInt8, green: UInt8, blue: UInt8)]) {
        var words = [UInt32](repeating: GIFPalette.word(0, 0, 0), count: 256)
        for (i, color) in colors.prefix(256).enumerated() {
            words[i] = GIFPalette.word(color.red, color.green, color.blue)
        }
        self.words = words
    }

    /// A palette from a giflib colour map.
    init(colorMap: UnsafePointer<ColorMapObject>) {
        let count = max(0, min(256, Int(colorMap.pointee.ColorCount)))
        guard let colors = colorMap.pointee.Colors else {
            self = .black
            return
        }
        self.init(colors: (0..<count).map { (colors[$0].Red, colors[$0].Green, colors[$0].Blue) })
    }

    /// An opaque colour as a word whose bytes in memory are r, g, b, 255 on any endianness.
    static func word(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt32 {
        (UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000).littleEndian
    }
}
