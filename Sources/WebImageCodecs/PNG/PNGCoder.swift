import Foundation
import WebImageCore

/// PNG and animated PNG (APNG) over libpng: every colour type and bit depth, interlacing, tRNS and palettes;
/// the EXIF orientation of an eXIf chunk; progressive display while downloading; lazy frame access; encoding
/// of stills and animations. A still's thumbnail is scaled while libpng decodes its rows (see
/// ``PNGScaledDecoder``); an animation over the options' animation limits is refused from its chunks.
///
/// Sources up to 8 bits decode to `.rgba8`, 16-bit sources to `.rgba16`, with the samples as stored (no gamma
/// conversion). The pixel limit is enforced from the IHDR chunk before libpng allocates anything. Debian's
/// libpng has no APNG support, so the animation chunks are parsed here and each frame is handed to libpng as
/// a standalone PNG, then composited onto the canvas; frame delays of 10 ms or less become 100 ms, as in
/// SDWebImage. Encoding is lossless, so `quality` and `maxFileSize` do not apply.
///
/// ```swift
/// let image = try PNGCoder().decode(data, options: .init())
/// let png = try PNGCoder().encode(image, as: .png, options: .init())
/// ```
public final class PNGCoder: ProgressiveImageCoding, AnimatedImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with the PNG signature.
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { PNGSignature.matches($0) }
    }

    /// Decodes a PNG, or every frame of an APNG (only the first with `firstFrameOnly`), composited.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            let image = try decode(data, store: &store, options: options)
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(PNGMetadata.read) }
        }
    }

    /// Decodes like ``decode(_:options:)``, a still PNG into `buffer`'s storage, reused when it is the only
    /// owner and big enough (see ``ImageDecoding/decode(_:reusing:options:)``); an APNG decodes as usual and
    /// leaves `buffer` alone.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            let image = try RasterStore.reusing(&buffer) { store in try decode(data, store: &store, options: options) }
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(PNGMetadata.read) }
        }
    }

    private func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            let header = try PNGHeader.parse(bytes)
            try options.checkPixelCount(width: header.width, height: header.height)
            let orientation = PNGOrientationReader.orientation(in: bytes)
            let profile = PNGColorReader.profile(in: bytes)
            if PNGHeader.isAnimated(bytes), let structure = try APNGStructure.parse(bytes, header: header) {
                return try Self.decodeAnimation(bytes, structure: structure, orientation: orientation, profile: profile,
                                                options: options)
            }
            let target = options.targetSize(forSource: header.size)
            var color = ColorManagement.Outcome.none
            var result: PNGRasterDecoder.Result
            if let target {
                result = try PNGScaledDecoder.decode(bytes, expected: header, target: target,
                                                     kernel: options.thumbnailKernel)
                color = result.pixels.withUnsafeMutableBytes { [format = result.pixels.format] raw in
                    PNGColorReader.manage(raw, format: format, profile: profile, options: options)
                }
            } else {
                result = try PNGRasterDecoder.decode(bytes, expected: header, store: &store) { raw, format in
                    color = PNGColorReader.manage(raw, format: format, profile: profile, options: options)
                }
            }
            let image = Image(frames: [ImageFrame(pixels: result.pixels)], orientation: orientation, format: .png,
                              hasAlpha: result.hasAlpha, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
            return options.finish(image, targetSize: target)
        }
    }

    /// Every frame (or only the first, per the options) composited on one canvas, with durations and the
    /// loop count; when the options ask for a smaller size only the scaled frames are kept.
    private static func decodeAnimation(_ bytes: UnsafeRawBufferPointer, structure: APNGStructure,
                                        orientation: ImageOrientation, profile: Result<[UInt8]?, ColorProfileFailure>,
                                        options: ImageDecodeOptions) throws -> Image {
        let count = options.firstFrameOnly ? 1 : structure.frames.count
        try options.checkAnimation(frameCount: count, canvas: structure.header.size)
        let target = options.targetSize(forSource: structure.header.size, frameCount: count)
        var player = APNGPlayer(structure: structure)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(count)
        let cancellation = WorkCancellation.current
        for frame in structure.frames.prefix(count) {
            try cancellation?.check()
            let canvas = try player.renderNext(in: bytes)
            let pixels = target.map { Resampler.resample(canvas, to: $0, kernel: options.thumbnailKernel) } ?? canvas
            frames.append(ImageFrame(pixels: pixels, duration: frame.control.duration))
        }
        var color = ColorManagement.Outcome.none
        for index in frames.indices {
            let format = frames[index].pixels.format
            color = frames[index].pixels.withUnsafeMutableBytes {
                PNGColorReader.manage($0, format: format, profile: profile, options: options)
            }
        }
        let image = Image(frames: frames, orientation: orientation, loopCount: structure.loopCount, format: .png,
                          hasAlpha: structure.hasAlpha, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
        return options.finish(image, targetSize: target)
    }

    /// True for `.png`.
    /// Size, frames, alpha, bit depth, orientation and colour from the chunks before the image data.
    public func header(_ data: Data) throws -> ImageHeader {
        try PNGHeader.imageHeader(data)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .png }

    /// Writes a PNG, or an APNG when the image has several frames (and `firstFrameOnly` is off).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .png else {
                throw WebImageError.encodingFailed(format: format, reason: "PNGCoder only writes PNG")
            }
            return try PNGEncoder.encode(image, options: options)
        }
    }

    /// Whether the bytes so far start like a PNG.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        data.withUnsafeBytes { PNGSignature.matches($0, allowPrefix: true) }
    }

    /// A decoder showing passes (interlaced) or rows (non-interlaced) while the bytes arrive.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        PNGProgressiveDecoder(coder: self, options: options)
    }

    /// Lazy frame access for an APNG (a single frame for a still PNG).
    public func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let structure = try data.withUnsafeBytes { bytes -> APNGStructure? in
            let header = try PNGHeader.parse(bytes)
            try options.checkPixelCount(width: header.width, height: header.height)
            return PNGHeader.isAnimated(bytes) ? try APNGStructure.parse(bytes, header: header) : nil
        }
        guard let structure else { return DecodedFramesDecoder(try decode(data, options: options)) }
        return try APNGAnimatedDecoder(data: data, structure: structure, options: options)
    }
}
