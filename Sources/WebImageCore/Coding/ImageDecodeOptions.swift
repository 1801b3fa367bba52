/// How to decode: the decode part of SDWebImage's context (`imageScaleFactor`, `imageThumbnailPixelSize`, …).
public struct ImageDecodeOptions: Sendable, Hashable {
    /// Points-to-pixels scale of the result. Default nil: derived from ``cacheKey`` (`@2x.` → 2, `@3x.` → 3),
    /// else 1.
    public var scaleFactor: Double?
    /// The cache key (or URL string) the bytes came from, used only to derive the scale. Default nil.
    public var cacheKey: String?
    /// Decode only the first frame of an animation. Default false.
    public var firstFrameOnly: Bool
    /// Decode to at most this many pixels (a thumbnail), downsampling during decode where the library can.
    /// Default nil: full size. Never upscales a raster when ``preserveAspectRatio`` is true; a vector image (PDF)
    /// is rasterised at this size, larger than its own as well.
    public var thumbnailPixelSize: PixelSize?
    /// Fit the thumbnail inside ``thumbnailPixelSize`` keeping the aspect ratio; false stretches to exactly that
    /// size. Default true.
    public var preserveAspectRatio: Bool
    /// The filter a decode reaches ``thumbnailPixelSize`` with, after whatever the library shrinks on load (a
    /// JPEG's DCT scaling, libwebp's scaled decode). Default ``Resampler/Kernel/area``; an image service that
    /// answers as libvips does asks for ``Resampler/Kernel/lanczos3``.
    public var thumbnailKernel: Resampler.Kernel
    /// Scale the image down (SDWebImage's formula) so all frames fit in this many bytes of RGBA8.
    /// Default nil: no limit.
    public var scaleDownLimitBytes: Int?
    /// The expected format when sniffing cannot tell (SDWebImage's `imageTypeIdentifierHint`). Default nil.
    public var typeHint: ImageFormat?
    /// Rotate/flip the pixels by the EXIF orientation so the result is upright (orientation `.up`).
    /// Default false: the orientation is reported and the pixels stay as stored.
    public var applyOrientation: Bool
    /// The largest frame, in pixels, a decoder accepts; larger ones fail before any pixel memory is allocated.
    /// Default 100,000,000 (100 MP).
    public var maxPixelCount: Int
    /// Options only a custom coder understands, passed through untouched. Default none.
    public var coderOptions: ImageCoderOptions
    /// The most frames an animation may have; more fail before any frame is decoded (with ``firstFrameOnly``
    /// only the first frame counts).
    ///
    /// Default 1,000: far above web animations (a 10 s clip at 30 fps has 300 frames). Every frame costs
    /// bookkeeping even when it is one pixel (giflib keeps a record per image), so the count needs a bound of
    /// its own: at 15 bytes a GIF frame, a small file could otherwise hold millions of them.
    public var maxFrameCount: Int
    /// The most pixels an animation may composite in all: frames × canvas pixels (a GIF frame larger than
    /// its screen counts its own size). Checked from the headers before any frame is decoded; with
    /// ``firstFrameOnly`` only the first frame counts; stills are bounded by ``maxPixelCount`` alone.
    ///
    /// Default 250,000,000. It bounds both costs of an animation: kept at full size its frames take at most
    /// 1 GB of RGBA8 (2.5 times a still at ``maxPixelCount``), and compositing and scaling them all takes
    /// about a second. It admits 1080p × 120 frames or 480×270 × 1,000 frames, and refuses the small-file
    /// bombs a large canvas builds (4000×4000 × 40 frames of one pixel: a 1 KB GIF, 2.5 GB of canvases).
    public var maxAnimationPixelCount: Int
    /// Convert pixels with an embedded ICC profile (JPEG APP2, PNG iCCP or gAMA + cHRM, WebP ICCP, JPEG XL's
    /// colour encoding) to sRGB, or keep them and attach the profile. Default ``DecodeColorSpace/sRGB``.
    public var colorSpace: DecodeColorSpace
    /// Attach the file's EXIF, XMP and IPTC to the image (``Image/metadata``) so an encoder can write them back.
    /// Default false: a decode reads none of it.
    public var readsMetadata: Bool

    public init(scaleFactor: Double? = nil, cacheKey: String? = nil, firstFrameOnly: Bool = false,
                thumbnailPixelSize: PixelSize? = nil, preserveAspectRatio: Bool = true,
                thumbnailKernel: Resampler.Kernel = .area, scaleDownLimitBytes: Int? = nil, typeHint: ImageFormat? = nil,
                applyOrientation: Bool = false,
                maxPixelCount: Int = 100_000_000, maxFrameCount: Int = 1_000,
                maxAnimationPixelCount: Int = 250_000_000, coderOptions: ImageCoderOptions = ImageCoderOptions(),
                colorSpace: DecodeColorSpace = .sRGB, readsMetadata: Bool = false) {
        self.scaleFactor = scaleFactor
        self.cacheKey = cacheKey
        self.firstFrameOnly = firstFrameOnly
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.thumbnailKernel = thumbnailKernel
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.typeHint = typeHint
        self.applyOrientation = applyOrientation
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.maxAnimationPixelCount = maxAnimationPixelCount
        self.coderOptions = coderOptions
        self.colorSpace = colorSpace
        self.readsMetadata = readsMetadata
    }

    /// Whether an image decoded with these options has the pixels a decode with `request` would give: the same
    /// thumbnail request, frames, orientation handling, colour space and coder options, and the metadata when the
    /// request reads it (scale and cache key only label the result). A memory-cache hit that fails this is decoded again (SDWebImage's `sd_decodeOptions` check).
    public func givesSamePixels(as request: ImageDecodeOptions) -> Bool {
        thumbnailPixelSize == request.thumbnailPixelSize
            && (thumbnailPixelSize == nil || preserveAspectRatio == request.preserveAspectRatio
                && thumbnailKernel == request.thumbnailKernel)
            && (!firstFrameOnly || request.firstFrameOnly)
            && applyOrientation == request.applyOrientation
            && colorSpace == request.colorSpace
            && coderOptions == request.coderOptions
            && (readsMetadata || !request.readsMetadata)
    }

    /// The scale to stamp on the result: ``scaleFactor`` if set, else from ``cacheKey``, else 1.
    public var resolvedScale: Double {
        if let scaleFactor, scaleFactor > 0, scaleFactor.isFinite { return scaleFactor }
        return cacheKey.map(ImageGeometry.scale(forKey:)) ?? 1
    }

    /// Throws `tooManyPixels` when a `width × height` frame is over ``maxPixelCount`` or not positive.
    ///
    /// Call it right after reading the header, before allocating anything the size of the image.
    public func checkPixelCount(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw WebImageError.badImageData(.corrupt("image dimensions \(width)x\(height) are not positive"))
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || count > maxPixelCount {
            throw WebImageError.badImageData(.tooManyPixels(width: width, height: height, limit: maxPixelCount))
        }
    }

    /// The size a `source`-sized image with `frameCount` frames should be decoded to: the thumbnail size
    /// (if any), then shrunk further to meet the scale-down limit. Nil when the full size is wanted.
    public func targetSize(forSource source: PixelSize, frameCount: Int = 1) -> PixelSize? {
        var target = source
        if let thumbnailPixelSize {
            target = ImageGeometry.thumbnailSize(source: source, requested: thumbnailPixelSize,
                                                 preserveAspectRatio: preserveAspectRatio)
        }
        if let limit = scaleDownLimitBytes, limit > 0,
           target.pixelCount * 4 * max(1, frameCount) > limit {
            target = ImageGeometry.scaledDownSize(source: target, limitBytes: limit, bytesPerPixel: 4,
                                                  frameCount: frameCount)
        }
        return target == source ? nil : target
    }
}
