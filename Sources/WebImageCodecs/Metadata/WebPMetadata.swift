import CWebP
import Foundation
import WebImageCore

/// EXIF (`EXIF` chunk) and XMP (`XMP ` chunk) of an extended WebP: read from the RIFF chunks, and added to encoded
/// bytes with libwebp's muxer (which sets VP8X's flags).
enum WebPMetadata {
    private static let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)
    private static let exifTag = Array("EXIF".utf8), xmpTag = Array("XMP ".utf8)

    /// The metadata in a whole WebP file; nil when it has none. A chunk running past the end ends the walk.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        func tag(at offset: Int) -> ArraySlice<UInt8> { ArraySlice(bytes[offset ..< offset + 4]) }
        func size(at offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard bytes.count >= 20, tag(at: 0).elementsEqual(riff), tag(at: 8).elementsEqual(webp) else { return nil }
        var metadata = ImageMetadata()
        let end = min(bytes.count, 8 + size(at: 4))
        var offset = 12
        while end - offset >= 8 {
            let length = size(at: offset + 4)
            guard end - offset - 8 >= length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[offset + 8 ..< offset + 8 + length])
            if tag(at: offset).elementsEqual(exifTag), metadata.exif == nil {
                metadata.exif = EXIFFilter.tiff(in: Data(payload))
            } else if tag(at: offset).elementsEqual(xmpTag), metadata.xmp == nil, length > 0 {
                metadata.xmp = Data(payload)
            }
            offset += 8 + length + length & 1
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
