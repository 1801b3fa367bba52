import CHEIF
import Foundation
import WebImageCore

/// One-shot decode of a HEIF/HEIC file's primary image, or of its embedded thumbnail when that is at least the
/// size the options ask for, in the options' colour space (an ICC profile in `colr` converted to sRGB or attached).
enum HEIFDecoding {
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let format: ImageFormat = ImageFormat(sniffing: data) == .heic ? .heic : .heif
        return try data.withUnsafeBytes { bytes in
            let file = try HEIFFile(bytes, options: options)
            let target = options.targetSize(forSource: file.displaySize)
            let primaryProfile = iccProfile(of: file.primary)
            if let target, let thumbnail = file.thumbnail(atLeast: target) {
                defer { heif_image_handle_release(thumbnail.handle) }
                var pixels = try HEIFRaster.decode(thumbnail.handle, store: &store)
                let profile = iccProfile(of: thumbnail.handle) ?? primaryProfile
                return options.finish(image(&pixels, profile: profile, format: format, file: file, options: options),
                                      targetSize: target)
            }
            var pixels = try HEIFRaster.decode(file.primary, store: &store)
            return options.finish(image(&pixels, profile: primaryProfile, format: format, file: file, options: options),
                                  sourceSize: file.displaySize)
        }
    }

    /// The image of `pixels`, converted from `profile` to sRGB or carrying it, as the options say.
    private static func image(_ pixels: inout PixelBuffer, profile: [UInt8]?, format: ImageFormat, file: HEIFFile,
                              options: ImageDecodeOptions) -> Image {
        let colour = ColorManagement.manage(&pixels, profile: profile, options: options)
        return Image(frames: [ImageFrame(pixels: pixels)], format: format, hasAlpha: file.hasAlpha,
                     iccProfile: colour.iccProfile, colorProfileIssue: colour.issue)
    }

    /// The item's `colr` ICC profile (`prof` or `rICC`); nil for none or `nclx` only (read as sRGB).
    static func iccProfile(of handle: OpaquePointer) -> [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return error.code == heif_error_Ok ? profile : nil
    }
}
