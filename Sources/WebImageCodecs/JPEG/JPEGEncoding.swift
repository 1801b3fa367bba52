import CTurboJPEG
import Foundation
import WebImageCore

/// Encoding with TurboJPEG: 4:2:0 chroma below quality 90 and 4:4:4 above, as libvips
/// (``ImageEncodeTuning/jpegSubsampling``), baseline or progressive (``ImageEncodeTuning/jpegProgressive``),
/// transparency flattened onto a background colour, the EXIF orientation kept in an APP1 segment, an attached ICC
/// profile in APP2 `ICC_PROFILE` segments and the image's ``Image/metadata`` in APP1 and APP13 segments
/// (``JPEGMetadata``); ``ImageEncodeOptions/dpi`` in the JFIF segment (``JPEGDensity``).
enum JPEGEncoding {
    /// Encodes the first frame as SDWebImage does: quality × 100, shrunk to `maxPixelSize`, and with
    /// `maxFileSize` the highest quality whose output fits (else the smallest output).
    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        var pixels = options.frames(of: image, firstOnly: true)[0].pixels.converted(to: .rgba8)
        if image.hasAlpha { pixels = pixels.flattened(onto: options.backgroundColor ?? .white) }
        let handle = try TurboJPEGHandle(forDecoding: false)
        let quality = max(1, min(100, Int((options.quality * 100).rounded())))
        // The accurate integer DCT, as libjpeg and libvips use by default: TurboJPEG's own default when
        // compressing is the fast one, which left every result further from its source (0.7 % in mean error on
        // photos resized to 512 px at quality 80) for a few per cent of the encode's time.
        let flags = (options.tuning.jpegProgressive ? TJFLAG_PROGRESSIVE : 0) | TJFLAG_ACCURATEDCT
        let subsampling = options.tuning.jpegSubsampling
        var jpeg: Data
        if let maxFileSize = options.maxFileSize {
            jpeg = try QualitySearch.largestFitting(maxFileSize, requested: quality, lowest: 1) {
                try compress(pixels, quality: $0, subsampled: subsampling.subsamples(atQuality: $0), flags: flags, handle)
            }
        } else {
            jpeg = try compress(pixels, quality: quality, subsampled: subsampling.subsamples(atQuality: quality),
                                flags: flags, handle)
        }
        if let dpi = options.resolvedDPI { JPEGDensity.setting(dpi, in: &jpeg) }
        // After SOI and the JFIF APP0 segment, which has to come first: EXIF, then the ICC profile.
        var at = 2
        if jpeg.count > 6 && jpeg[2] == 0xFF && jpeg[3] == 0xE0 { at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) }
        at = min(at, jpeg.count)
        if let profile = image.iccProfile, !profile.isEmpty {
            jpeg.insert(contentsOf: JPEGICCProfile.segments(for: [UInt8](profile)), at: at)
        }
        if let metadata = image.metadata {
            jpeg.insert(contentsOf: JPEGMetadata.segments(for: metadata, orientation: image.orientation), at: at)
        }
        if image.orientation != .up && !JPEGMetadata.writesEXIF(image.metadata) {
            jpeg.insert(contentsOf: EXIFOrientation.app1Segment(for: image.orientation), at: at)
        }
        return jpeg
    }

    private static func compress(_ pixels: PixelBuffer, quality: Int, subsampled: Bool, flags: Int32,
                                 _ handle: TurboJPEGHandle) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(output) }
        let status = pixels.withUnsafeBytes { raw in
            tjCompress2(handle.raw, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(pixels.width), 0,
                        Int32(pixels.height), Int32(TJPF_RGBA.rawValue), &output, &length,
                        Int32((subsampled ? TJSAMP_420 : TJSAMP_444).rawValue), Int32(quality), flags)
        }
        guard status == 0, let output else {
            throw WebImageError.encodingFailed(format: .jpeg, reason: handle.message)
        }
        return Data(bytes: output, count: Int(length))
    }
}
