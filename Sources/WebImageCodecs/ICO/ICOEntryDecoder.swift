import Foundation
import WebImageCore

/// Decodes one ICO entry: a PNG stream through ``PNGCoder``, or a DIB through the BMP readers with the icon's
/// rules (half the stated height is colour, the rest a 1-bit AND mask; 32-bit pixels carry alpha in their
/// fourth byte, and when every alpha byte is 0 the AND mask gives the transparency instead).
enum ICOEntryDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, entry: ICODirectory.Entry, options: ImageDecodeOptions) throws -> Image {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<entry.offset + entry.length])
        if PNGSignature.matches(slice) {
            let png = try PNGCoder().decode(Data(slice), options: options)
            return png.with(format: .ico)
        }
        var header = try BMPHeader.parse(dib: slice, at: 0, pixelOffset: nil)
        guard header.height % 2 == 0, !header.isTopDown else {
            throw WebImageError.badImageData(.corrupt("ICO bitmap height \(header.height) is not doubled"))
        }
        header.height /= 2
        if header.bitCount == 32 && header.compression == .none { header.masks[3] = 0xFF00_0000 }
        var (pixels, _) = try BMPDecoding.raster(slice, header: header, options: options)
        let maskStart = header.pixelOffset + header.rowStride * header.height
        if header.bitCount != 32 || !hasVisibleAlpha(pixels) {
            applyMask(slice, at: maskStart, to: &pixels)
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], format: .ico, hasAlpha: true)
        return options.finish(image, sourceSize: pixels.size)
    }

    /// Whether some alpha byte is not 0: old 32-bit icons leave the fourth byte 0 and rely on the mask.
    private static func hasVisibleAlpha(_ pixels: PixelBuffer) -> Bool {
        pixels.withUnsafeBytes { raw in Swift.stride(from: 3, to: raw.count, by: 4).contains { raw[$0] != 0 } }
    }

    /// Clears the pixels whose AND-mask bit is set (rows bottom-up, each padded to 4 bytes). A missing mask
    /// leaves the image opaque, as Windows draws such icons.
    private static func applyMask(_ bytes: UnsafeRawBufferPointer, at start: Int, to pixels: inout PixelBuffer) {
        let (width, height) = (pixels.width, pixels.height)
        let stride = (width + 31) / 32 * 4
        guard start + stride * height <= bytes.count else {
            // Opaque pixels: make sure a 32-bit image whose alpha was all 0 is not left invisible.
            pixels.withUnsafeMutableBytes { raw in for i in Swift.stride(from: 3, to: raw.count, by: 4) { raw[i] = 255 } }
            return
        }
        pixels.withUnsafeMutableBytes { raw in
            for row in 0..<height {
                let y = height - 1 - row
                for x in 0..<width {
                    let masked = bytes[start + row * stride + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                    let at = (y * width + x) * 4
                    if masked {
                        raw[at] = 0; raw[at + 1] = 0; raw[at + 2] = 0; raw[at + 3] = 0
                    } else {
                        raw[at + 3] = 255
                    }
                }
            }
        }
    }
}
