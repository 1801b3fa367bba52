import WebImage

/// An opaque 8-bit RGB colour for drawing on a ``Canvas``.
struct RGB: Equatable {
    var red, green, blue: UInt8
}

/// An opaque RGBA8 drawing surface for the contact sheet: fills, a checkerboard, alpha-blended pasting and
/// single pixels (for the bitmap font). Everything is clipped to the canvas.
struct Canvas {
    let width: Int
    let height: Int
    private var bytes: [UInt8]

    init(width: Int, height: Int, background: RGB) {
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 255, count: width * height * 4)
        fill(x: 0, y: 0, width: width, height: height, with: background)
    }

    mutating func set(x: Int, y: Int, to color: RGB) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 4
        bytes[i] = color.red; bytes[i + 1] = color.green; bytes[i + 2] = color.blue
    }

    mutating func fill(x: Int, y: Int, width: Int, height: Int, with color: RGB) {
        for row in y..<y + height {
            for column in x..<x + width { set(x: column, y: row, to: color) }
        }
    }

    /// Light and dark squares, so transparency in pasted images shows.
    mutating func checkerboard(x: Int, y: Int, width: Int, height: Int, square: Int = 8) {
        let light = RGB(red: 255, green: 255, blue: 255), dark = RGB(red: 214, green: 214, blue: 214)
        for row in 0..<height {
            for column in 0..<width {
                set(x: x + column, y: y + row, to: (row / square + column / square) % 2 == 0 ? light : dark)
            }
        }
    }

    /// Blends `image` (straight alpha) over the canvas with its top-left corner at (`x`, `y`).
    mutating func paste(_ image: PixelBuffer, x: Int, y: Int) {
        let source = image.converted(to: .rgba8)
        for row in 0..<source.height {
            for column in 0..<source.width {
                let cx = x + column, cy = y + row
                guard cx >= 0, cx < width, cy >= 0, cy < height else { continue }
                let s = (row * source.width + column) * 4, d = (cy * width + cx) * 4
                let alpha = Int(source.bytes[s + 3])
                for c in 0..<3 {
                    bytes[d + c] = UInt8((Int(source.bytes[s + c]) * alpha + Int(bytes[d + c]) * (255 - alpha) + 127) / 255)
                }
            }
        }
    }

    /// The canvas as an opaque raster.
    var pixels: PixelBuffer { PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes) }
}
