import Foundation
import WebImageCore

/// One-shot decoding of complete JPEG XL bytes: a still (or an animation's first frame) straight into the
/// result's raster, or every frame of an animation, each scaled as it comes off libjxl's canvas when the
/// options ask for a smaller size.
enum JXLDecoding {
    /// The raster of a still is written into `store` (new storage or a caller's buffer).
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let reader = try JXLFrameReader(data, options: options)
        let header = reader.header
        if header.isAnimated && !options.firstFrameOnly {
            return try decodeAnimation(data, reader: reader, options: options)
        }
        var color = ColorManagement.Outcome.none
        let pixels = try store.fill(width: header.size.width, height: header.size.height,
                                    format: header.pixelFormat) { raw in
            try reader.decodeNext(into: raw)
            color = ColorManagement.manage(raw, format: header.pixelFormat, pixelCount: header.size.pixelCount,
                                           profile: reader.iccProfile, options: options)
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: header.orientation,
                          loopCount: header.loopCount, format: .jxl, hasAlpha: header.hasAlpha,
                          iccProfile: color.iccProfile, colorProfileIssue: color.issue)
        return options.finish(image, sourceSize: header.size)
    }

    /// Every frame, with the limits checked from the frame headers first; when the options ask for a smaller
    /// size only the scaled frames are kept.
    private static func decodeAnimation(_ data: Data, reader: JXLFrameReader,
                                        options: ImageDecodeOptions) throws -> Image {
        let header = reader.header
        let durations = try JXLFrameIndex.durations(of: data, header: header, options: options)
        let target = options.targetSize(forSource: header.size, frameCount: durations.count)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(durations.count)
        var color = ColorManagement.Outcome.none
        for duration in durations {
            let canvas = try PixelBuffer(width: header.size.width, height: header.size.height,
                                         format: header.pixelFormat) { raw in
                try reader.decodeNext(into: raw)
                color = ColorManagement.manage(raw, format: header.pixelFormat, pixelCount: header.size.pixelCount,
                                               profile: reader.iccProfile, options: options)
            }
            frames.append(ImageFrame(pixels: target.map { Resampler.resample(canvas, to: $0, kernel: options.thumbnailKernel) } ?? canvas,
                                     duration: duration))
        }
        let image = Image(frames: frames, orientation: header.orientation, loopCount: header.loopCount,
                          format: .jxl, hasAlpha: header.hasAlpha, iccProfile: color.iccProfile,
                          colorProfileIssue: color.issue)
        return options.finish(image, targetSize: target)
    }
}
