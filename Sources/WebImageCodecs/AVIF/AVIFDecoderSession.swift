import CAVIF
import Foundation
import WebImageCore

/// One parsed AVIF file over libavif's `avifDecoder`: the container read, the limits checked, and frames decoded
/// on request into RGBA rasters at the coded size.
///
/// The pixel limit is checked from the container (`ispe`, or a grid's output size) right after
/// `avifDecoderParse`, before any AV1 data is decoded; libavif's own `imageSizeLimit`, which dav1d enforces on
/// every frame it decodes, is then lowered to the same limit. libavif 0.11 refuses sizes over 16384 × 16384 or
/// a side over 32768 while parsing (reported as corrupt data). Of libavif's strict checks only the one every
/// later version keeps stays on (an alpha item needs `ispe`): a missing `pixi` is tolerated as libheif and
/// browsers tolerate it, and 0.11's `clap` check applies a chroma-alignment rule later versions dropped, so
/// the crop is validated and applied here (``AVIFGeometry``). Not thread-safe: callers serialise access.
final class AVIFDecoderSession {
    /// The size frames are decoded at, before `clap`, `irot` and `imir`.
    let codedSize: PixelSize
    /// 1 for a still; the sample count of an `avis` track.
    let frameCount: Int
    let hasAlpha: Bool
    /// Bits per sample as coded (8, 10 or 12).
    let depth: Int
    /// The crop and orientation the container asks for.
    let geometry: AVIFGeometry
    /// The colour the pixels are in: the `colr` box's ICC profile (`prof`/`rICC`), which wins when both are
    /// present, else the `nclx` code points (libavif takes them from the AV1 sequence header when there is no
    /// `nclx` box).
    let color: EmbeddedColor

    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>

    /// Parses the container (no AV1 decoding) and enforces `options.maxPixelCount`.
    init(_ data: Data, options: ImageDecodeOptions) throws {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let decoder = avifDecoderCreate() else {
            throw WebImageError.badImageData(.corrupt("AVIF: libavif could not create a decoder"))
        }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        // libavif reads straight from this memory while decoding, so the session owns a copy.
        self.bytes = copy
        self.decoder = decoder
        decoder.pointee.strictFlags = AVIF_STRICT_ALPHA_ISPE_REQUIRED.rawValue
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        var result = avifDecoderSetIOMemory(decoder, copy.baseAddress?.assumingMemoryBound(to: UInt8.self), copy.count)
        if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            let error = AVIFStatus.decodeError(result, decoder)
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw error
        }
        codedSize = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        frameCount = max(1, Int(decoder.pointee.imageCount))
        hasAlpha = decoder.pointee.alphaPresent != AVIF_FALSE
        depth = Int(image.pointee.depth)
        let icc = image.pointee.icc
        if icc.size > 0, let bytes = icc.data {
            color = .icc(Array(UnsafeBufferPointer(start: bytes, count: icc.size)))
        } else {
            color = .nclx(NCLXColor(primaries: image.pointee.colorPrimaries,
                                    transfer: image.pointee.transferCharacteristics))
        }
        do {
            try options.checkPixelCount(width: codedSize.width, height: codedSize.height)
            geometry = try AVIFGeometry(image.pointee, codedSize: codedSize)
        } catch {
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw error
        }
        let limit = min(options.maxPixelCount, Int(AVIF_DEFAULT_IMAGE_SIZE_LIMIT))
        decoder.pointee.imageSizeLimit = UInt32(max(1, limit))
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    /// The size frames are delivered at: the coded size after the crop and orientation.
    var displaySize: PixelSize { geometry.displaySize }

    /// 16-bit storage for 10- and 12-bit sources (as 16-bit PNG decodes), else 8-bit.
    var pixelFormat: PixelFormat { depth > 8 ? .rgba16 : .rgba8 }

    /// Seconds frame `index` is shown: the sample's duration; a zero duration reads as 100 ms so that a
    /// player never spins on it.
    func duration(at index: Int) -> Double {
        var timing = avifImageTiming()
        guard avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK,
              timing.duration > 0, timing.duration.isFinite else { return 0.1 }
        return timing.duration
    }

    /// Decodes frame `index` (libavif goes back to the nearest keyframe for random access) and writes it as
    /// straight-alpha RGBA at the coded size into `store`.
    func raster(at index: Int, store: inout RasterStore) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        let result = avifDecoderNthImage(decoder, UInt32(index))
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw AVIFStatus.decodeError(result, decoder)
        }
        // The AV1 payload can disagree with the container; the raster must match what was decoded.
        guard Int(image.pointee.width) == codedSize.width, Int(image.pointee.height) == codedSize.height else {
            throw WebImageError.badImageData(.corrupt(
                "AVIF: frame \(index) is \(image.pointee.width)x\(image.pointee.height), the container says \(codedSize.width)x\(codedSize.height)"))
        }
        let format = pixelFormat
        return try store.fill(width: codedSize.width, height: codedSize.height, format: format) { raw in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = format == .rgba16 ? 16 : 8
            // Straight alpha out: libavif unpremultiplies when the file's alpha is premultiplied (`prem`).
            rgb.alphaPremultiplied = AVIF_FALSE
            rgb.pixels = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(codedSize.width * format.bytesPerPixel)
            let converted = avifImageYUVToRGB(image, &rgb)
            guard converted == AVIF_RESULT_OK else { throw AVIFStatus.decodeError(converted, decoder) }
        }
    }
}
