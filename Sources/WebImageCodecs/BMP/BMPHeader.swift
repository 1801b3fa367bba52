import WebImageCore

/// A BMP's file and info headers: every Windows version (BITMAPINFOHEADER, V2/V3 with masks in the header, V4,
/// V5 with an embedded profile) and OS/2's (v1's 12-byte header with 3-byte palette entries, v2's 16–64 bytes).
///
/// Parsing checks what would make decoding misbehave or allocate without bound: header size, planes, bit
/// count, compression, masks, the palette's room before the pixels, negative width, top-down RLE. The pixel
/// count and the data's length are checked by the decoder.
struct BMPHeader {
    /// Where the DIB (info header, masks, palette, pixels) starts: 14 in a file, 0 inside an ICO.
    var dibStart: Int
    var headerSize: Int
    var width: Int
    /// Rows as stored (a positive number; ``isTopDown`` tells their order).
    var height: Int
    var isTopDown: Bool
    var bitCount: Int
    var compression: Compression
    /// Red, green, blue and alpha masks for 16- and 32-bit pixels (the defaults for uncompressed ones).
    var masks: [UInt32]
    /// Colours as RGBA (alpha 255).
    var palette: [UInt32]
    /// Offset of the pixel data from the start of the bytes.
    var pixelOffset: Int
    /// biSizeImage: the pixel data's length, 0 when the writer left it out.
    var imageSize: Int
    /// An embedded ICC profile (V5 `PROFILE_EMBEDDED`).
    var iccProfile: [UInt8]?
    /// The file header's size field (0 for a DIB inside an ICO).
    var declaredFileSize = 0

    enum Compression: Equatable {
        case none, rle8, rle4, bitfields
    }

    static let fileHeaderSize = 14
    private static let knownHeaderSizes: Set<Int> = [12, 16, 40, 52, 56, 64, 108, 124]
    private static let profileEmbedded: UInt32 = 0x4D42_4544  // 'MBED'

    /// Bytes a stored row takes (padded to 4 bytes).
    var rowStride: Int { (width * bitCount + 31) / 32 * 4 }

    var hasAlpha: Bool { masks[3] != 0 }

    /// Whether the file starts with "BM".
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x42 && bytes[1] == 0x4D
    }

    /// Parses a BMP file.
    static func parse(file bytes: UnsafeRawBufferPointer) throws -> BMPHeader {
        guard !bytes.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard hasSignature(bytes) else { throw WebImageError.badImageData(.corrupt("not a BMP file")) }
        guard bytes.count >= fileHeaderSize + 4 else { throw WebImageError.badImageData(.truncated) }
        let declaredFileSize = bytes.littleEndianUInt32(at: 2)
        let offset = Int(bytes.littleEndianUInt32(at: 10))
        var header = try parse(dib: bytes, at: fileHeaderSize, pixelOffset: offset)
        header.declaredFileSize = Int(declaredFileSize)
        return header
    }

    /// Parses a DIB at `start` (an ICO entry), its pixels at `pixelOffset`, or right after the palette when nil.
    static func parse(dib bytes: UnsafeRawBufferPointer, at start: Int, pixelOffset: Int?) throws -> BMPHeader {
        guard bytes.count >= start + 4 else { throw WebImageError.badImageData(.truncated) }
        let size = Int(bytes.littleEndianUInt32(at: start))
        guard knownHeaderSizes.contains(size) else {
            throw WebImageError.badImageData(.corrupt("BMP info header of \(size) bytes"))
        }
        guard bytes.count >= start + size else { throw WebImageError.badImageData(.truncated) }
        let os2v1 = size == 12
        let width = os2v1 ? Int(bytes.littleEndianUInt16(at: start + 4)) : Int(Int32(bitPattern: bytes.littleEndianUInt32(at: start + 4)))
        let rawHeight = os2v1 ? Int(bytes.littleEndianUInt16(at: start + 6)) : Int(Int32(bitPattern: bytes.littleEndianUInt32(at: start + 8)))
        let planes = Int(bytes.littleEndianUInt16(at: start + (os2v1 ? 8 : 12)))
        let bitCount = Int(bytes.littleEndianUInt16(at: start + (os2v1 ? 10 : 14)))
        let compressionCode = size >= 20 ? bytes.littleEndianUInt32(at: start + 16) : 0
        let imageSize = size >= 24 ? Int(bytes.littleEndianUInt32(at: start + 20)) : 0
        let colorsUsed = size >= 36 ? Int(bytes.littleEndianUInt32(at: start + 32)) : 0
        guard width > 0, rawHeight != 0, rawHeight != Int(Int32.min) else {
            throw WebImageError.badImageData(.corrupt("BMP dimensions \(width)x\(rawHeight)"))
        }
        guard planes == 1 else { throw WebImageError.badImageData(.corrupt("BMP with \(planes) planes")) }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
            throw WebImageError.badImageData(.corrupt("BMP with \(bitCount) bits a pixel"))
        }
        let isOS2v2 = size == 16 || size == 64
        let compression: Compression
        var masksAfterHeader = 0
        switch (compressionCode, bitCount) {
        case (0, _): compression = .none
        case (1, 8) where !isOS2v2: compression = .rle8
        case (2, 4) where !isOS2v2: compression = .rle4
        case (3, 16) where !isOS2v2, (3, 32) where !isOS2v2, (6, 16), (6, 32):
            compression = .bitfields
            if size == 40 { masksAfterHeader = compressionCode == 6 ? 16 : 12 }
        default:
            throw WebImageError.badImageData(.corrupt("BMP compression \(compressionCode) at \(bitCount) bits is not supported"))
        }
        if compression == .rle4 || compression == .rle8, rawHeight < 0 {
            throw WebImageError.badImageData(.corrupt("a top-down BMP cannot be RLE-compressed"))
        }
        let masksEnd = start + size + masksAfterHeader
        guard bytes.count >= masksEnd else { throw WebImageError.badImageData(.truncated) }
        let masks = try Self.masks(bytes, start: start, size: size, compression: compression, bitCount: bitCount,
                                   masksAfterHeader: masksAfterHeader)
        // The palette of an indexed image: colorsUsed entries (or 2^bits when 0), which must fit before the pixels.
        // Other images may carry one as a hint; it is skipped.
        let entrySize = os2v1 ? 3 : 4
        var paletteCount = bitCount <= 8 ? (colorsUsed == 0 ? 1 << bitCount : colorsUsed) : 0
        let dataStart = pixelOffset ?? (masksEnd + min(paletteCount, 256) * entrySize)
        guard dataStart >= masksEnd, dataStart <= bytes.count else {
            throw WebImageError.badImageData(dataStart > bytes.count ? .truncated : .corrupt("BMP pixel data offset \(dataStart)"))
        }
        let room = (dataStart - masksEnd) / entrySize
        if paletteCount > room {
            // An explicit count that does not fit is a lie; the implied one may be short (OS/2 files in the wild).
            guard colorsUsed == 0 else {
                throw WebImageError.badImageData(.corrupt("BMP palette of \(colorsUsed) colours in \(room) entries' room"))
            }
            paletteCount = room
        }
        let palette: [UInt32] = (0..<paletteCount).map { index in
            let at = masksEnd + index * entrySize
            return UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000
        }
        if bitCount <= 8 && palette.isEmpty {
            throw WebImageError.badImageData(.corrupt("BMP indexed image without a palette"))
        }
        return BMPHeader(dibStart: start, headerSize: size, width: width, height: abs(rawHeight), isTopDown: rawHeight < 0,
                         bitCount: bitCount, compression: compression, masks: masks, palette: palette,
                         pixelOffset: dataStart, imageSize: imageSize,
                         iccProfile: embeddedProfile(bytes, start: start, size: size))
    }

    private static func masks(_ bytes: UnsafeRawBufferPointer, start: Int, size: Int, compression: Compression,
                              bitCount: Int, masksAfterHeader: Int) throws -> [UInt32] {
        guard compression == .bitfields else {
            switch bitCount {
            case 16: return [0x7C00, 0x03E0, 0x001F, 0]
            case 24, 32: return [0xFF_0000, 0xFF00, 0xFF, 0]
            default: return [0, 0, 0, 0]
            }
        }
        // Masks sit right after BITMAPINFOHEADER's 40 bytes, inside the V2+ headers or after a V3 one alike.
        let maskCount = masksAfterHeader == 16 || size >= 56 ? 4 : 3
        var masks = (0..<maskCount).map { bytes.littleEndianUInt32(at: start + 40 + $0 * 4) }
        if maskCount == 3 { masks.append(0) }
        let limit: UInt64 = (1 << UInt64(bitCount)) - 1
        for (index, mask) in masks.enumerated() {
            guard UInt64(mask) <= limit else {
                throw WebImageError.badImageData(.corrupt("BMP mask \(String(mask, radix: 16)) wider than \(bitCount) bits"))
            }
            guard index == 3 || mask != 0 else { throw WebImageError.badImageData(.corrupt("BMP colour mask is empty")) }
            let shifted = mask >> UInt32(mask.trailingZeroBitCount)
            guard mask == 0 || shifted & (shifted &+ 1) == 0 else {
                throw WebImageError.badImageData(.corrupt("BMP mask \(String(mask, radix: 16)) is not contiguous"))
            }
        }
        for i in 0..<4 { for j in (i + 1)..<4 where masks[i] & masks[j] != 0 {
            throw WebImageError.badImageData(.corrupt("BMP masks overlap"))
        } }
        return masks
    }

    /// A V5 header's embedded profile, when its offset and size lie inside the bytes.
    private static func embeddedProfile(_ bytes: UnsafeRawBufferPointer, start: Int, size: Int) -> [UInt8]? {
        guard size >= 124, bytes.littleEndianUInt32(at: start + 56) == profileEmbedded else { return nil }
        let offset = Int(bytes.littleEndianUInt32(at: start + 112)), length = Int(bytes.littleEndianUInt32(at: start + 116))
        let (from, overflow) = start.addingReportingOverflow(offset)
        guard length > 0, !overflow, from <= bytes.count, length <= bytes.count - from else { return nil }
        return Array(bytes[from..<from + length])
    }
}

extension UnsafeRawBufferPointer {
    /// A little-endian `UInt32` at `offset` (the caller checked the bounds).
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }

    /// A little-endian `UInt16` at `offset`.
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }
}
