import WebImage

/// What a request asks the service to do with its source image: imgproxy's processing options.
///
/// Every property's default is imgproxy's; the service applies its own limits (output side, source size)
/// when it processes, not here.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image is fitted to ``width`` × ``height`` (imgproxy's `resizing_type`).
    public enum ResizingType: String, Sendable, Hashable, CaseIterable {
        /// Keep the aspect ratio and fit inside the box.
        case fit
        /// Keep the aspect ratio, fill the box and crop what sticks out (by ``gravity``).
        case fill
        /// As `fill`, but never upscale: a smaller source gives a smaller result with the box's aspect ratio.
        case fillDown = "fill-down"
        /// Stretch to exactly the box.
        case force
        /// `fill` when the source and box orientations agree (both portrait or both landscape), else `fit`.
        case auto
    }

    /// Which part of the image stays when cropping.
    public enum Gravity: Sendable, Hashable {
        case north, south, east, west, northEast, northWest, southEast, southWest, center
        /// imgproxy's smart gravity (`sm`): the crop goes where libvips' attention strategy finds the most
        /// detail, skin tones and saturation (``AttentionCrop``).
        case smart
        /// A focus point, each coordinate 0…1 of the width and height.
        case focusPoint(x: Double, y: Double)
    }

    /// A crop applied before resizing: a size in pixels (0 = the whole side; 0…1 = a fraction) and its gravity.
    public struct Crop: Sendable, Hashable {
        public var width: Double
        public var height: Double
        /// Default nil: the request's ``ProcessingOptions/gravity`` and its offsets.
        public var gravity: Gravity?
        /// The crop gravity's offsets, as ``ProcessingOptions/gravityOffsetX``. Default 0.
        public var offsetX = 0.0
        public var offsetY = 0.0
    }

    /// Extending the result to the requested size (`extend`) or aspect ratio (`extend_aspect_ratio`) with
    /// transparent pixels (the `background` colour where the format has no alpha), the image placed by gravity.
    public struct Extension: Sendable, Hashable {
        /// Default ``Gravity/center``.
        public var gravity: Gravity = .center
        /// Offsets as ``ProcessingOptions/gravityOffsetX``. Default 0.
        public var offsetX = 0.0
        public var offsetY = 0.0
    }

    /// Transparent margins added around the result, in pixels before `dpr` (imgproxy's `padding`).
    public struct Padding: Sendable, Hashable {
        public var top = 0, right = 0, bottom = 0, left = 0
    }

    /// The operator's watermark drawn over the result (imgproxy's `watermark`).
    public struct Watermark: Sendable, Hashable {
        /// 0…1, times the operator's opacity.
        public var opacity: Double
        /// Where it goes: a gravity (offsets below), or tiled over the whole result.
        public var gravity: Gravity = .center
        public var replicates = false
        /// As the gravity's offsets; tiled, the spacing between tiles.
        public var offsetX = 0.0
        public var offsetY = 0.0
        /// Fitted into this fraction of the result's size; 0: its own size.
        public var scale = 0.0
    }

    /// Cutting away the border of one colour before anything else (imgproxy's `trim`).
    public struct Trim: Sendable, Hashable {
        /// How far (0…255, in any channel) a pixel may be from the colour and still count as border.
        public var threshold: Double
        /// The border's colour; nil: the top-left pixel's.
        public var color: RGBAColor?
        /// Cut as much from the left as from the right (the smaller of the two).
        public var equalHorizontal = false
        /// Cut as much from the top as from the bottom.
        public var equalVertical = false
    }

    /// imgproxy's per-URL security options, read only when the operator allows them; each can only lower the
    /// operator's limit. nil (the default): the operator's.
    public struct SecurityLimits: Sendable, Hashable {
        /// `max_src_resolution`, in pixels.
        public var maxSourcePixels: Int?
        /// `max_src_file_size`, in bytes.
        public var maxSourceBytes: Int?
        /// `max_animation_frames`.
        public var maxAnimationFrames: Int?
        /// `max_animation_frame_resolution`, in pixels.
        public var maxAnimationFramePixels: Int?
        /// `max_result_dimension`, in pixels.
        public var maxResultDimension: Int?
    }

    /// Default ``ResizingType/fit``.
    public var resizingType: ResizingType = .fit
    /// The resampling kernel of the resize (imgproxy Pro's `resizing_algorithm`: `nearest`, `linear`, `cubic`,
    /// `lanczos2`, `lanczos3`, as libvips has them). Default `lanczos3`, imgproxy's: after the decoder's shrink on
    /// load (a JPEG's DCT scaling to at least the result's size, libwebp's scaled decode), as libvips resizes.
    public var resizingAlgorithm: Resampler.Kernel = .lanczos3
    /// Target width in pixels; 0 (the default) follows the height and the aspect ratio.
    public var width = 0
    /// Target height in pixels; 0 (the default) follows the width and the aspect ratio.
    public var height = 0
    /// Allow results larger than the source. Default false.
    public var enlarge = false
    /// The smallest width the result may have, raising the scale (imgproxy's `min-width`); 0 (the default): none.
    public var minWidth = 0
    /// The smallest height the result may have; 0 (the default): none.
    public var minHeight = 0
    /// Multiplies the scale and the requested width (imgproxy's `zoom`). Default 1.
    public var zoomX = 1.0
    /// Multiplies the scale and the requested height. Default 1.
    public var zoomY = 1.0
    /// Multiplies ``width`` and ``height`` (for high-density screens). Default 1.
    public var dpr = 1.0
    /// Default ``Gravity/center``.
    public var gravity: Gravity = .center
    /// The gravity's offset from its edge, inward (imgproxy's `x_offset`): pixels of the result when 1 or more
    /// in magnitude (times `dpr`), else a fraction of the width. Default 0.
    public var gravityOffsetX = 0.0
    /// As ``gravityOffsetX``, vertically. Default 0.
    public var gravityOffsetY = 0.0
    /// Default nil: no crop.
    public var crop: Crop?
    /// Default nil: the crop area as `crop` gives it.
    public var cropAspectRatio: CropAspectRatio?
    /// Output quality 1…100; 0 (the default) uses ``formatQuality`` or the service's default for the format.
    public var quality = 0
    /// Quality by output format (imgproxy's `format_quality`), used when ``quality`` is 0. Default none.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// Output format; nil (the default) negotiates from `Accept`, else the source's format.
    public var format: ImageFormat?
    /// imgproxy Pro's `format:best`: the smallest of the result in each format it may be answered in. Default
    /// false.
    public var bestFormat = false
    /// Extend to the requested size; nil (the default): no.
    public var extend: Extension?
    /// Extend to the requested aspect ratio; nil (the default): no.
    public var extendAspectRatio: Extension?
    /// Default none.
    public var padding = Padding()
    /// The side of the squares the result is pixelated into, in result pixels (not times `dpr`, as in imgproxy);
    /// 0 or 1 (the default): none.
    public var pixelate = 0
    /// Gaussian blur's standard deviation in pixels; 0 (the default) leaves the image sharp.
    public var blur = 0.0
    /// Sharpening strength (an unsharp mask's sigma); 0 (the default) does not sharpen.
    public var sharpen = 0.0
    /// Added to each colour channel, -255…255 (imgproxy Pro's `brightness`). Default 0.
    public var brightness = 0
    /// Each channel's distance from mid-grey multiplied by this (imgproxy Pro's `contrast`). Default 1.
    public var contrast = 1.0
    /// Colourfulness (chroma in CIE LCh) multiplied by this (imgproxy Pro's `saturation`). Default 1.
    public var saturation = 1.0
    /// Default nil: none.
    public var monochrome: Monochrome?
    /// Default nil: none.
    public var duotone: Duotone?
    /// Default nil: none.
    public var colorize: Colorize?
    /// Default nil: none.
    public var gradient: Gradient?
    /// The service's unsharp masking replaced for this URL (imgproxy Pro's `unsharp_masking`); each part nil
    /// (the default) keeps the service's.
    public var unsharpMasking = UnsharpMaskingOverride()
    /// Clockwise rotation, a multiple of 90. Default 0.
    public var rotate = 0
    /// Turn the image upright by its EXIF (or XMP) orientation (imgproxy's `auto_rotate`); false keeps the pixels
    /// as stored. Default true (the operator's `IMGPROXY_AUTO_ROTATE`).
    public var autoRotate = true
    /// Mirror the image left to right, after rotating (imgproxy's `flip`). Default false.
    public var flipHorizontally = false
    /// Mirror the image top to bottom, after rotating. Default false.
    public var flipVertically = false
    /// Colour transparent pixels are flattened onto; nil (the default) keeps transparency where the format can.
    public var background: RGBAColor?
    /// Drop the source's metadata (EXIF, XMP, IPTC) from the result, except the copyright when
    /// ``keepCopyright``; false keeps all of it (the EXIF orientation set to 1: results are upright). Default true.
    public var stripMetadata = true
    /// When stripping metadata, keep the copyright: EXIF Artist and Copyright, IPTC by-line, credit and
    /// copyright notice, XMP `dc` rights, creator, contributor and publisher, `xmpRights` and `cc`. Default true.
    public var keepCopyright = true
    /// Convert the result to sRGB and carry no colour profile (imgproxy's `strip_color_profile`); false keeps
    /// the source's pixels and profile in formats that carry one (JPEG, PNG, WebP, AVIF, HEIC, JPEG XL, TIFF) and
    /// converts to sRGB for the others. Default true (the operator's `IMGPROXY_STRIP_COLOR_PROFILE`).
    public var stripColorProfile = true
    /// Process an HEIC or AVIF source's first embedded thumbnail instead of its main image when it has one
    /// (imgproxy's `enforce_thumbnail`). Default false (the operator's `IMGPROXY_ENFORCE_THUMBNAIL`).
    public var enforceThumbnail = false
    /// Answer the source's bytes as they came, in its own format, with no processing and no check of its
    /// pixels (imgproxy's `raw`); it must still be an image within the download limits. Default false.
    public var raw = false
    /// The result's resolution in dots per inch, written in JPEG's JFIF segment and PNG's `pHYs` chunk (imgproxy
    /// Pro's `dpi`); 0 (the default) leaves it as the encoder writes it.
    public var dpi = 0.0
    /// CSS put first in an SVG source's root element before it is sanitised and drawn (imgproxy Pro's `style`);
    /// other sources ignore it. Default nil.
    public var style: String?
    /// Default: none, the service's autoquality settings.
    public var autoQuality = AutoQuality()
    /// Lower the quality until the result fits in this many bytes; 0 (the default) means no limit.
    public var maxBytes = 0
    /// The name in `Content-Disposition` before its extension (imgproxy's `filename`); nil (the default): the
    /// source's file name without its extension, else `image`.
    public var filename: String?
    /// Answer with `Content-Disposition: attachment` rather than `inline`. Default false.
    public var returnAttachment = false
    /// Default: none, the service's encoder settings.
    public var jpegOptions = JPEGOptions()
    /// Default: none, the service's encoder settings.
    public var pngOptions = PNGOptions()
    /// Default: none, the service's encoder settings.
    public var webpOptions = WebPOptions()
    /// Default: none, the service's encoder settings.
    public var avifOptions = AVIFOptions()
    /// Default nil: no watermark.
    public var watermark: Watermark?
    /// Default: the operator's image, as it is.
    public var watermarkImage = WatermarkImage()
    /// Default nil: no trim. Animations are not trimmed, as in imgproxy.
    public var trim: Trim?
    /// Default none.
    public var security = SecurityLimits()
    /// Source formats answered as they came, unprocessed, when the result would be in that same format
    /// (imgproxy's `skip_processing`). Default none.
    public var skipProcessing: Set<ImageFormat> = []
    /// The first page (frame) of a multi-page or animated source a still result is made of (imgproxy Pro's
    /// `page`, 0-based). Default 0.
    public var page = 0
    /// How many pages from ``page`` a still result stacks, top to bottom and left-aligned (imgproxy Pro's
    /// `pages`). Default 1.
    public var pages = 1
    /// The time, in seconds, of a video source's frame (imgproxy Pro's `video_thumbnail_second`). Default the
    /// operator's (``ImageProxyConfiguration/VideoThumbnails/second``).
    public var videoThumbnailSecond = 1.0
    /// Take a video's key frame at or before ``videoThumbnailSecond`` (imgproxy Pro's `video_thumbnail_keyframes`).
    /// Default the operator's (``ImageProxyConfiguration/VideoThumbnails/keyframes``).
    public var videoThumbnailKeyframes = false
    /// A video source made into a sprite sheet of its frames (imgproxy Pro's `video_thumbnail_tile`). Default nil.
    public var videoTile: VideoTile?
    /// A video source made into an animation of its frames (imgproxy Pro's `video_thumbnail_animation`); a sprite
    /// sheet wins over it. Default nil.
    public var videoAnimation: VideoAnimation?
    /// Process every source as a still: its first frame (imgproxy Pro's `disable_animation`). Default false.
    public var disableAnimation = false
    /// The digest the source must have; nil (the default) checks none.
    public var hashsum: Hashsum?
    /// The image answered, processed like the source, when the source cannot be had (imgproxy Pro's
    /// `fallback_image_url`), instead of the operator's fallback image. Default nil.
    public var fallbackImageURL: String?
    /// Ignored by processing; only changes the cache key (imgproxy's `cachebuster`). Default empty.
    public var cacheBuster = ""
    /// A Unix time after which the URL answers 404; nil (the default) never expires.
    public var expires: Int?

    public init() {}
}
