import CAVIF
import Foundation
import WebImageCore

/// Encodes stills and image sequences (`avis`) with libavif 0.11 and its AV1 encoder (libaom in Debian's build).
///
/// - Quality: libavif 0.11 has no `quality` setting, only quantizers; `quality` 0…1 becomes one fixed
///   quantizer for colour and alpha, `minQuantizer = maxQuantizer = round((1 − quality) × 63)` (1 → 0, the
///   finest), on 4:2:0 chroma below quality 90 and 4:4:4 above, as libvips (``ImageEncodeTuning/avifSubsampling``).
/// - Lossless: quantizer 0, 4:4:4, the identity matrix (RGB stored as is) and full range: 8-bit images
///   round-trip pixel-exactly. 16-bit images are written with 12 bits (lossless) or 10 bits (lossy).
/// - Effort: ``ImageEncodeEffort/balanced`` is speed 6 (`avifenc`'s default), ``ImageEncodeEffort/fastest``
///   speed 10 (AV1's fastest: larger files, several times quicker); ``ImageEncodeTuning/avifSpeed`` replaces both.
/// - Orientation: written as `irot`/`imir`, so the image displays (and decodes) upright.
/// - Colour: an attached ICC profile (``Image/iccProfile``) is written as a `colr` `prof` box.
/// - Metadata: ``Image/metadata``'s EXIF and XMP as items (``AVIFMetadata``).
/// - Sequences: each frame's duration in milliseconds (timescale 1000); libavif 0.11 cannot write a
///   repetition count, so sequences play forever whatever the loop count.
/// - File size: with ``ImageEncodeOptions/maxFileSize`` (lossy only), the largest whole quality (0…100) up to
///   the requested one whose output fits, as the JPEG and WebP encoders choose it.
enum AVIFEncoder {
    static func encode(_ frames: [ImageFrame], orientation: ImageOrientation, iccProfile: Data? = nil,
                       metadata: ImageMetadata? = nil, options: ImageEncodeOptions) throws -> Data {
        let size = frames[0].pixels.size
        guard frames.allSatisfy({ $0.pixels.size == size }) else {
            throw WebImageError.encodingFailed(format: .avif, reason: "animation frames differ in size")
        }
        guard !options.lossless, let limit = options.maxFileSize else {
            return try encode(frames, orientation: orientation, iccProfile: iccProfile, metadata: metadata,
                              options: options, quality: options.quality)
        }
        return try QualitySearch.largestFitting(limit, requested: Int((options.quality * 100).rounded()), lowest: 0) {
            try encode(frames, orientation: orientation, iccProfile: iccProfile, metadata: metadata, options: options,
                       quality: Double($0) / 100)
        }
    }

    private static func encode(_ frames: [ImageFrame], orientation: ImageOrientation, iccProfile: Data?,
                               metadata: ImageMetadata?, options: ImageEncodeOptions, quality: Double) throws -> Data {
        guard let encoder = avifEncoderCreate() else {
            throw WebImageError.encodingFailed(format: .avif, reason: "libavif could not create an encoder")
        }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = options.lossless ? Int32(AVIF_QUANTIZER_LOSSLESS)
            : Int32(((1 - quality) * Double(AVIF_QUANTIZER_WORST_QUALITY)).rounded())
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        let effortSpeed = options.resolvedEffort == .fastest ? Int(AVIF_SPEED_FASTEST) : 6
        encoder.pointee.speed = Int32(options.tuning.avifSpeed ?? effortSpeed)
        encoder.pointee.timescale = 1000
        let hasAlpha = frames.contains { $0.pixels.containsTransparency }
        let single = frames.count == 1
        let subsampled = options.tuning.avifSubsampling.subsamples(atQuality: Int((quality * 100).rounded()))
        // libavif encodes a frame in one call with no progress hook: the token is polled between frames.
        let cancellation = WorkCancellation.current
        for frame in frames {
            try cancellation?.check()
            let image = try makeImage(frame.pixels, orientation: orientation, iccProfile: iccProfile,
                                      hasAlpha: hasAlpha, lossless: options.lossless, subsampled: subsampled)
            defer { avifImageDestroy(image) }
            if let metadata { AVIFMetadata.set(metadata, orientation: orientation, on: image) }
            let milliseconds = UInt64(max(1, (max(0, frame.duration) * 1000).rounded()))
            let result = avifEncoderAddImage(encoder, image, milliseconds,
                                             single ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : 0)
            guard result == AVIF_RESULT_OK else { throw AVIFStatus.encodeError(result, encoder) }
        }
        try cancellation?.check()
        var output = avifRWData()
        let result = avifEncoderFinish(encoder, &output)
        defer { avifRWDataFree(&output) }
        guard result == AVIF_RESULT_OK, let bytes = output.data else { throw AVIFStatus.encodeError(result, encoder) }
        return Data(bytes: bytes, count: output.size)
    }

    /// An `avifImage` holding `pixels` in YUV (or identity-matrix RGB when lossless), with the transforms
    /// that display `orientation` upright. The caller destroys it.
    private static func makeImage(_ pixels: PixelBuffer, orientation: ImageOrientation, iccProfile: Data?,
                                  hasAlpha: Bool, lossless: Bool,
                                  subsampled: Bool) throws -> UnsafeMutablePointer<avifImage> {
        let depth: UInt32 = pixels.format == .rgba16 ? (lossless ? 12 : 10) : 8
        let yuv = subsampled && !lossless ? AVIF_PIXEL_FORMAT_YUV420 : AVIF_PIXEL_FORMAT_YUV444
        guard let image = avifImageCreate(UInt32(pixels.width), UInt32(pixels.height), depth, yuv) else {
            throw WebImageError.encodingFailed(format: .avif, reason: "libavif could not create an image")
        }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        image.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = UInt16(lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY
                                                           : AVIF_MATRIX_COEFFICIENTS_BT601)
        if let iccProfile, !iccProfile.isEmpty {
            iccProfile.withUnsafeBytes {
                avifImageSetProfileICC(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
            }
        }
        let (angle, mirror) = AVIFGeometry.transforms(for: orientation)
        if angle != 0 {
            image.pointee.transformFlags |= AVIF_TRANSFORM_IROT.rawValue
            image.pointee.irot.angle = UInt8(angle)
        }
        if let mirror {
            image.pointee.transformFlags |= AVIF_TRANSFORM_IMIR.rawValue
            image.pointee.imir.mode = UInt8(mirror)
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = pixels.format == .rgba16 ? 16 : 8
        rgb.ignoreAlpha = hasAlpha ? AVIF_FALSE : AVIF_TRUE
        rgb.rowBytes = UInt32(pixels.bytesPerRow)
        let result = pixels.withUnsafeBytes { raw in
            // libavif only reads the RGB pixels here; the field is not const.
            rgb.pixels = UnsafeMutablePointer(mutating: raw.bindMemory(to: UInt8.self).baseAddress)
            return avifImageRGBToYUV(image, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            avifImageDestroy(image)
            throw AVIFStatus.encodeError(result, nil)
        }
        return image
    }
}
