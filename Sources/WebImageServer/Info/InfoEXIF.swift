import CExif
import Foundation

/// A source's EXIF as `/info` gives it: each tag by libexif's title (`Date and Time`) or, with canonical names,
/// its name (`DateTime`), and libexif's text of its value (`8.00 EV (f/16.0)`), as imgproxy Pro answers.
enum InfoEXIF {
    /// A larger EXIF block is not read (a JPEG's holds 64 KB; imgproxy's container reads at most 8 MB).
    static let maxBytes = 1 << 20
    /// Tags past this many are left out.
    static let maxTags = 1_000
    /// libexif cuts each value's text to this many bytes.
    static let maxValueBytes = 1_024

    /// The IFDs in the order their tags are taken: a tag found twice (IFD1, the thumbnail's, repeats IFD0's
    /// resolution) keeps the first.
    private static let ifds: [ExifIfd] = [EXIF_IFD_0, EXIF_IFD_EXIF, EXIF_IFD_GPS, EXIF_IFD_INTEROPERABILITY, EXIF_IFD_1]

    /// The tags of `tiff` (a TIFF structure, as ``ImageMetadata/exif`` holds it); empty when libexif reads none.
    static func tags(_ tiff: Data, canonicalNames: Bool) -> [String: String] {
        guard !tiff.isEmpty, tiff.count <= maxBytes, let exif = exif_data_new() else { return [:] }
        defer { exif_data_unref(exif) }
        // Read what the file says: no entries added or "fixed" to follow the specification, as libvips reads.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        let bytes = [UInt8]("Exif".utf8) + [0, 0] + [UInt8](tiff)
        bytes.withUnsafeBufferPointer { exif_data_load_data(exif, $0.baseAddress, UInt32($0.count)) }
        var tags: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: maxValueBytes)
        let contents = withUnsafeBytes(of: exif.pointee.ifd) { Array($0.bindMemory(to: UnsafeMutablePointer<ExifContent>?.self)) }
        for ifd in ifds {
            guard let content = contents[Int(ifd.rawValue)], let entries = content.pointee.entries else { continue }
            for index in 0..<Int(content.pointee.count) where tags.count < maxTags {
                guard let entry = entries[index] else { continue }
                let tag = entry.pointee.tag
                let label = canonicalNames ? exif_tag_get_name_in_ifd(tag, ifd) : exif_tag_get_title_in_ifd(tag, ifd)
                guard let label, tags[InfoText.clean(label)] == nil else { continue }
                buffer.withUnsafeMutableBufferPointer { value in
                    value[0] = 0
                    _ = exif_entry_get_value(entry, value.baseAddress, UInt32(value.count))
                }
                let value = buffer.withUnsafeBufferPointer { InfoText.clean($0.baseAddress!) }
                tags[InfoText.clean(label)] = value
            }
        }
        return tags
    }
}

/// Text from metadata, made safe to answer: valid UTF-8 (bad sequences replaced), without NULs, bounded.
enum InfoText {
    static let maxBytes = 64 << 10

    static func clean(_ text: UnsafePointer<CChar>) -> String {
        clean(UnsafeRawBufferPointer(start: text, count: strnlen(text, maxBytes)))
    }

    static func clean(_ bytes: some Collection<UInt8>) -> String {
        let bounded = bytes.prefix(maxBytes).filter { $0 != 0 }
        return String(decoding: bounded, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
