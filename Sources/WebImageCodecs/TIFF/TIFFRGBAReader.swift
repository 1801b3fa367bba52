import CTIFF
import WebImageCore

/// Decodes any directory libtiff's RGBA interface understands (palettes, 1–16-bit grey, white-is-zero, YCbCr
/// and old-style JPEG, CMYK, separate planes, LogLuv) into 8-bit RGBA, as stored (no orientation flip), with
/// straight alpha.
enum TIFFRGBAReader {
    /// Fills `out` (`width × height × 4` bytes) from the current directory of `file`.
    static func read(_ file: TIFFFile, page: TIFFPage, into out: UnsafeMutableRawBufferPointer) throws {
        file.log.reset()
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(file.handle, &message) != 0 else {
            throw WebImageError.badImageData(.corrupt(Self.text(message)))
        }
        var image = TIFFRGBAImage()
        guard TIFFRGBAImageBegin(&image, file.handle, 1, &message) != 0 else {
            throw WebImageError.badImageData(.corrupt(Self.text(message)))
        }
        defer { TIFFRGBAImageEnd(&image) }
        // Asking for the file's own orientation makes libtiff flip nothing: rows come out as stored, top first,
        // and the orientation is reported on the image like every other format's.
        image.req_orientation = UInt16(page.orientation.rawValue)
        let raster = out.baseAddress!.assumingMemoryBound(to: UInt32.self)
        guard TIFFRGBAImageGet(&image, raster, UInt32(page.width), UInt32(page.height)) != 0 else {
            throw file.log.failure("libtiff could not decode the image")
        }
        // Packed as A<<24 | B<<16 | G<<8 | R: RGBA bytes on a little-endian machine.
        #if _endian(big)
        let pixels = out.bindMemory(to: UInt32.self)
        for i in pixels.indices { pixels[i] = pixels[i].byteSwapped }
        #endif
        // libtiff premultiplies unassociated alpha too, so both kinds come out associated.
        if image.alpha != 0 {
            AlphaUnpremultiplier.unpremultiply8(out.bindMemory(to: UInt8.self))
        }
    }

    /// libtiff's NUL-terminated message buffer as text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
