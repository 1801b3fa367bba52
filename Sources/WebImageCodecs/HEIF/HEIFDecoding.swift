import CHEIF
import Foundation
import WebImageCore

/// One-shot decode of a HEIF/HEIC file's primary image, or of its embedded thumbnail when that is at least the
/// size the options ask for, in the options' colour space (the `colr` ICC profile, or one built from `nclx`,
/// converted to sRGB or attached).
enum HEIFDecoding {
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let format = format(of: data)
        if options.coderOptions[EmbeddedThumbnail.self],
           let thumbnail = try embeddedThumbnail(data, format: format, store: &store, options: options) {
            return thumbnail
        }
        return try data.withUnsafeBytes { bytes in
            let file = try HEIFFile(bytes, options: options)
            let target = options.targetSize(forSource: file.displaySize)
            let primaryColor = embeddedColor(of: file.primary)
            if let target, let thumbnail = file.thumbnail(atLeast: target) {
                defer { heif_image_handle_release(thumbnail.handle) }
                var pixels = try HEIFRaster.decode(thumbnail.handle, store: &store)
                let color = embeddedColor(of: thumbnail.handle) ?? primaryColor
                return options.finish(image(&pixels, color: color, format: format, file: file, options: options),
                                      targetSize: target)
            }
            var pixels = try HEIFRaster.decode(file.primary, store: &store)
            return options.finish(image(&pixels, color: primaryColor, format: format, file: file, options: options),
                                  sourceSize: file.displaySize)
        }
    }

    /// HEIC for HEVC brands, else HEIF.
    static func format(of data: Data) -> ImageFormat {
        ImageFormat(sniffing: data) == .heic ? .heic : .heif
    }

    /// The image of `pixels`, converted from `color` to sRGB or carrying its profile, as the options say.
    private static func image(_ pixels: inout PixelBuffer, color: EmbeddedColor?, format: ImageFormat,
                              file: HEIFFile, options: ImageDecodeOptions) -> Image {
        let colour = ColorManagement.manage(&pixels, color: color, options: options)
        return Image(frames: [ImageFrame(pixels: pixels)], format: format, hasAlpha: file.hasAlpha,
                     iccProfile: colour.iccProfile, colorProfileIssue: colour.issue)
    }

    /// The item's `colr` colour: its ICC profile (`prof` or `rICC`, which libheif reports when both kinds are
    /// present), else its `nclx` code points; nil without a `colr` box (libheif 1.15 reads no colour from the
    /// HEVC bitstream).
    static func embeddedColor(of handle: OpaquePointer) -> EmbeddedColor? {
        let type = heif_image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_nclx {
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let error = heif_image_handle_get_nclx_color_profile(handle, &nclx)
            // libheif hands out the profile before it checks the code points: freed on failure too.
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            guard error.code == heif_error_Ok, let nclx else { return nil }
            return .nclx(NCLXColor(primaries: UInt16(clamping: nclx.pointee.color_primaries.rawValue),
                                   transfer: UInt16(clamping: nclx.pointee.transfer_characteristics.rawValue)))
        }
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return error.code == heif_error_Ok ? .icc(profile) : nil
    }
}
