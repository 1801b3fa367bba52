import Foundation
import WebImageCore

/// One-shot decode of an AVIF file: a still (into the caller's raster store) or every frame of an `avis`
/// sequence, cropped and turned upright by the container's transforms, then brought to the options' size and
/// colour space (the `colr` ICC profile, or one built from `nclx`, converted to sRGB or attached, as the options
/// say).
enum AVIFDecoding {
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let session = try AVIFDecoderSession(data, options: options)
        let frameCount = options.firstFrameOnly ? 1 : session.frameCount
        try options.checkAnimation(frameCount: frameCount, canvas: session.displaySize)
        guard frameCount > 1 else {
            var pixels = session.geometry.apply(to: try session.raster(at: 0, store: &store))
            let colour = ColorManagement.manage(&pixels, color: session.color, options: options)
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: .avif, hasAlpha: session.hasAlpha,
                              iccProfile: colour.iccProfile, colorProfileIssue: colour.issue)
            return options.finish(image, sourceSize: session.displaySize)
        }
        let target = options.targetSize(forSource: session.displaySize, frameCount: frameCount)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        // libavif decodes a frame (all its tiles) in one call with no progress hook: the token is polled between
        // frames.
        let cancellation = WorkCancellation.current
        for index in 0..<frameCount {
            try cancellation?.check()
            frames.append(ImageFrame(pixels: try frame(session, at: index, size: target, kernel: options.thumbnailKernel),
                                     duration: session.duration(at: index)))
        }
        let colour = ColorManagement.manage(&frames, color: session.color, options: options)
        let image = Image(frames: frames, loopCount: AVIFDecoding.loopCount, format: .avif, hasAlpha: session.hasAlpha,
                          iccProfile: colour.iccProfile, colorProfileIssue: colour.issue)
        return options.finish(image, targetSize: target)
    }

    /// libavif 0.11 reads no repetition count (the `elst` box's loop flag), so every sequence plays forever,
    /// as browsers play an `avis` without one.
    static let loopCount = 0

    /// Frame `index` upright, resampled to `size` when given (each frame is scaled as it is decoded, so only
    /// one full-size raster exists at a time).
    static func frame(_ session: AVIFDecoderSession, at index: Int, size: PixelSize?,
                      kernel: Resampler.Kernel) throws -> PixelBuffer {
        var store = RasterStore.fresh
        let pixels = session.geometry.apply(to: try session.raster(at: index, store: &store))
        guard let size, size != pixels.size else { return pixels }
        return Resampler.resample(pixels, to: size, kernel: kernel)
    }
}
