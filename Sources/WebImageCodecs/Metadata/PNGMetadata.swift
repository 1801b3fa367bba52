import Foundation
import WebImageCore

/// EXIF (`eXIf`) and XMP (`iTXt` keyword `XML:com.adobe.xmp`) of a PNG: read from the chunks with a valid CRC,
/// and written back as chunks right after IHDR.
enum PNGMetadata {
    private static let xmpKeyword: [UInt8] = Array("XML:com.adobe.xmp".utf8) + [0]

    /// The metadata in a whole PNG stream; nil when it has none. A cut-off chunk ends the walk.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        guard PNGSignature.matches(bytes) else { return nil }
        var metadata = ImageMetadata()
        var chunks = PNGChunkIterator(bytes)
        while let chunk = try? chunks.next(), chunk.type != PNGChunkType.IEND {
            guard chunk.type == PNGChunkType.eXIf || chunk.type == PNGChunkType.iTXt,
                  chunk.hasValidCRC(in: bytes) else { continue }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])
            if chunk.type == PNGChunkType.eXIf, metadata.exif == nil {
                metadata.exif = EXIFFilter.tiff(in: Data(payload))
            } else if chunk.type == PNGChunkType.iTXt, metadata.xmp == nil, let packet = PNGXMPText.packet(in: payload) {
                metadata.xmp = Data(packet)
            }
        }
        return metadata.isEmpty ? nil : metadata
    }

    /// `eXIf` and uncompressed `iTXt` chunks (CRCs included) for what `metadata` has, the EXIF orientation made to
    /// agree with `orientation`.
    static func chunks(for metadata: ImageMetadata, orientation: ImageOrientation) -> [UInt8] {
        var writer = PNGChunkWriter()
        if let exif = metadata.exif(for: orientation) { writer.append(PNGChunkType.eXIf, [UInt8](exif)) }
        if let xmp = metadata.xmp {
            // Not compressed, no language tag, no translated keyword.
            writer.append(PNGChunkType.iTXt, xmpKeyword + [0, 0, 0, 0] + [UInt8](xmp))
        }
        return Array(writer.bytes.dropFirst(PNGSignature.bytes.count))
    }
}
