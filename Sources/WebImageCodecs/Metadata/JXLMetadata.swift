import CJXL
import Foundation
import WebImageCore

/// EXIF (`Exif` box: a 4-byte offset, then the TIFF structure) and XMP (`xml ` box) of a JPEG XL container:
/// read by walking its boxes, written with libjxl's box API (which makes the output a container).
///
/// Brotli-compressed metadata (`brob` boxes) is not read; a bare codestream has no metadata.
enum JXLMetadata {
    /// More boxes than this is not a real file; the rest are not looked at.
    private static let maxBoxes = 1_000

    /// The metadata of a JPEG XL file; nil when it has none. A box running past the end ends the walk.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        guard bytes.starts(with: ImageFormat.jxlContainerSignature) else { return nil }
        func bigEndian(_ at: Int, _ count: Int) -> Int {
            bytes[at ..< at + count].reduce(0) { $0 << 8 | Int($1) }
        }
        var metadata = ImageMetadata()
        var offset = 0
        for _ in 0..<maxBoxes {
            guard bytes.count - offset >= 8 else { break }
            var header = 8, size = bigEndian(offset, 4)
            let type = String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)
            if size == 1 {
                guard bytes.count - offset >= 16, bytes[offset + 8] == 0 else { break }
                size = bigEndian(offset + 8, 8)
                header = 16
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= header, size <= bytes.count - offset else { break }
            let payload = Data(bytes[offset + header ..< offset + size])
            if type == "Exif", metadata.exif == nil {
                metadata.exif = EXIFFilter.tiff(in: payload)
            } else if type == "xml ", metadata.xmp == nil, !payload.isEmpty {
                metadata.xmp = payload
            }
            offset += size
        }
        return metadata.isEmpty ? nil : metadata
    }

    /// Adds `Exif` and `xml ` boxes for `metadata` (the EXIF orientation made to agree with `orientation`) to
    /// `encoder`, before any frame.
    static func addBoxes(_ metadata: ImageMetadata, orientation: ImageOrientation, to encoder: OpaquePointer) throws {
        let boxes = [("Exif", metadata.exif(for: orientation).map { Data(count: 4) + $0 }), ("xml ", metadata.xmp)]
            .compactMap { type, data in data.map { (type, $0) } }
        guard !boxes.isEmpty else { return }
        guard JxlEncoderUseContainer(encoder, JXL_TRUE) == JXL_ENC_SUCCESS,
              JxlEncoderUseBoxes(encoder) == JXL_ENC_SUCCESS else {
            throw WebImageError.encodingFailed(format: .jxl, reason: "libjxl refused metadata boxes")
        }
        for (type, data) in boxes {
            let status = type.utf8CString.withUnsafeBufferPointer { name in
                data.withUnsafeBytes {
                    JxlEncoderAddBox(encoder, name.baseAddress, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, JXL_FALSE)
                }
            }
            guard status == JXL_ENC_SUCCESS else {
                throw WebImageError.encodingFailed(format: .jxl, reason: "libjxl refused the \(type) box")
            }
        }
        JxlEncoderCloseBoxes(encoder)
    }
}
