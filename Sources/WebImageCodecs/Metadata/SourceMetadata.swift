import Foundation
import WebImageCore

/// The metadata of a file read without decoding it, for the service's `/info`: the same readers a decode with
/// ``ImageDecodeOptions/readsMetadata`` uses, chosen by format.
package enum SourceMetadata {
    /// The EXIF, XMP and IPTC `data` (a whole file in `format`) carries; nil when it has none or its format keeps
    /// none where these readers look (GIF, BMP, ICO, TIFF, SVG, PDF).
    package static func read(_ data: Data, format: ImageFormat) -> ImageMetadata? {
        switch format {
        case .jpeg: data.withUnsafeBytes(JPEGMetadata.read)
        case .png: data.withUnsafeBytes(PNGMetadata.read)
        case .webp: data.withUnsafeBytes(WebPMetadata.read)
        case .jxl: data.withUnsafeBytes(JXLMetadata.read)
        case .avif: AVIFMetadata.read(data)
        case .heic, .heif: HEIFMetadata.read(data)
        default: nil
        }
    }

    /// Photoshop's resolution resource (0x03ED: horizontal and vertical resolution as 16.16 fixed point, each
    /// with its unit and its size unit) from the first APP13 of a JPEG that holds one; nil otherwise.
    package static func photoshopResolution(inJPEG data: Data) -> [UInt8]? {
        data.withUnsafeBytes { bytes in
            for segment in JPEGSegmentIterator(bytes) where segment.marker == JPEGMarker.app13 {
                if let found = PhotoshopResources.resource(PhotoshopResources.resolutionResource,
                                                           inAPP13: segment.body(in: bytes)) { return found }
            }
            return nil
        }
    }

    /// The IPTC-IIM datasets of `iptc` in order, each with its value; nil when the stream is malformed.
    package static func iptcDatasets(_ iptc: Data) -> [(record: UInt8, dataset: UInt8, value: ArraySlice<UInt8>)]? {
        IPTCFilter.datasets(in: [UInt8](iptc))?.map { entry in
            let bytes = entry.bytes, start = bytes.startIndex
            // The header: marker, record, dataset, a 2-byte size, and for an extended size the bytes it names.
            let size = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
            let header = 5 + (size & 0x8000 != 0 ? size & 0x7FFF : 0)
            return (entry.record, entry.dataset, bytes[(start + header)...])
        }
    }
}
