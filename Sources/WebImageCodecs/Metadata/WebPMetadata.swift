import CWebP
import Foundation
import WebImageCore

/// EXIF (`EXIF` chunk) and XMP (`XMP ` chunk) of an extended WebP: read from the RIFF chunks, and added to encoded
/// bytes with libwebp's muxer (which sets VP8X's flags).
enum WebPMetadata {
    /// The metadata in a whole WebP file; nil when it has none. The chunks are walked by ``RIFFChunkIterator``:
    /// a chunk running past the end ends the walk.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        guard let chunks = RIFFChunkIterator(webp: bytes) else { return nil }
        var metadata = ImageMetadata()
        for chunk in chunks {
            if chunk.type == WebPChunkType.EXIF, metadata.exif == nil {
                metadata.exif = EXIFFilter.tiff(in: Data(chunk.payload(in: bytes)))
            } else if chunk.type == WebPChunkType.XMP, metadata.xmp == nil, chunk.length > 0 {
                metadata.xmp = Data(chunk.payload(in: bytes))
            }
        }
        return metadata.isEmpty ? nil : metadata
    }

    /// `webp` with `metadata`'s EXIF (its orientation made to agree with `orientation`) and XMP chunks added.
    static func attach(_ metadata: ImageMetadata, orientation: ImageOrientation, to webp: Data) throws -> Data {
        let chunks = [("EXIF", metadata.exif(for: orientation)), ("XMP ", metadata.xmp)].compactMap { name, data in
            data.map { (name: name, data: $0) }
        }
        return try WebPChunkWriter.attach(chunks, to: webp)
    }
}
