import Foundation
import WebImageCore

extension PNGHeader {
    /// The header of PNG or APNG bytes from the chunks before the image data: IHDR, tRNS, acTL and the frame
    /// controls, the orientation and colour chunks (the same readers decoding uses).
    static func imageHeader(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            let header = try parse(bytes)
            try header.validate(crcOf: bytes)
            let animation = isAnimated(bytes) ? try APNGStructure.parse(bytes, header: header) : nil
            return ImageHeader(format: .png, pixelSize: header.size, orientation: PNGOrientationReader.orientation(in: bytes),
                               frameCount: max(1, animation?.frames.count ?? 1),
                               hasAlpha: animation?.hasAlpha ?? (header.colorType & 4 != 0 || hasTransparency(bytes)),
                               bitDepth: header.bitDepth, hasColorDescription: PNGColorReader.describesColor(in: bytes))
        }
    }

    /// The bit depths each colour type allows (PNG §11.2.2).
    private static let allowedDepths: [Int: Set<Int>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16],
                                                         6: [8, 16]]

    /// What libpng checks before decoding, so a header read refuses what a decode would: IHDR's CRC, a colour
    /// type and bit depth the format allows, non-zero sides.
    private func validate(crcOf bytes: UnsafeRawBufferPointer) throws {
        var chunks = PNGChunkIterator(bytes)
        guard let ihdr = try? chunks.next(), ihdr.hasValidCRC(in: bytes) else {
            throw WebImageError.badImageData(.corrupt("IHDR: CRC error"))
        }
        guard Self.allowedDepths[colorType]?.contains(bitDepth) == true else {
            throw WebImageError.badImageData(.corrupt("IHDR: invalid bit depth \(bitDepth) for colour type \(colorType)"))
        }
        guard width > 0, height > 0 else {
            throw WebImageError.badImageData(.corrupt("IHDR: the image is \(width)x\(height)"))
        }
    }

    /// Whether a tRNS chunk comes before the image data (libpng then reports alpha for any colour type).
    private static func hasTransparency(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var chunks = PNGChunkIterator(bytes)
        while let chunk = try? chunks.next(), chunk.type != PNGChunkType.IDAT {
            if chunk.type == PNGChunkType.tRNS { return true }
        }
        return false
    }
}
