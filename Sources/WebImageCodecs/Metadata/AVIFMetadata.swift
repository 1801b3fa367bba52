import CAVIF
import Foundation
import WebImageCore

/// EXIF and XMP items of an AVIF: read by a libavif parse of the container (no AV1 decoding), written through
/// `avifImageSetMetadataExif`/`XMP`.
enum AVIFMetadata {
    /// The metadata of an AVIF file; nil when it has none or libavif cannot parse the container.
    static func read(_ data: Data) -> ImageMetadata? {
        guard !data.isEmpty, let decoder = avifDecoderCreate() else { return nil }
        defer { avifDecoderDestroy(decoder) }
        return data.withUnsafeBytes { raw -> ImageMetadata? in
            guard avifDecoderSetIOMemory(decoder, raw.bindMemory(to: UInt8.self).baseAddress, raw.count) == AVIF_RESULT_OK,
                  avifDecoderParse(decoder) == AVIF_RESULT_OK, let image = decoder.pointee.image else { return nil }
            let exif = image.pointee.exif, xmp = image.pointee.xmp
            let metadata = ImageMetadata(
                exif: exif.size > 0 ? exif.data.flatMap { EXIFFilter.tiff(in: Data(bytes: $0, count: exif.size)) } : nil,
                xmp: xmp.size > 0 ? xmp.data.map { Data(bytes: $0, count: xmp.size) } : nil)
            return metadata.isEmpty ? nil : metadata
        }
    }

    /// Sets `metadata` on `image`, the EXIF orientation made to agree with `orientation`. libavif derives `irot`
    /// and `imir` from the EXIF it is given: the image's own transforms are put back.
    static func set(_ metadata: ImageMetadata, orientation: ImageOrientation, on image: UnsafeMutablePointer<avifImage>) {
        let (flags, irot, imir) = (image.pointee.transformFlags, image.pointee.irot, image.pointee.imir)
        defer { (image.pointee.transformFlags, image.pointee.irot, image.pointee.imir) = (flags, irot, imir) }
        if let exif = metadata.exif(for: orientation) {
            exif.withUnsafeBytes { avifImageSetMetadataExif(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
        }
        if let xmp = metadata.xmp {
            xmp.withUnsafeBytes { avifImageSetMetadataXMP(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
        }
    }
}
