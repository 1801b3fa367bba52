import Foundation
import WebImageCore

/// Lazy, thread-safe access to an animated JPEG XL's frames.
///
/// One ``JXLFrameReader`` is kept behind a lock: asking for the next frame decodes just that frame; asking for
/// another one seeks (libjxl rewinds and skips, decoding only the frames later ones reference). The last frame
/// handed out is kept so repeated requests for it cost nothing. Frames are delivered at the options' target
/// size, with the orientation reported rather than applied, as the other animated decoders do, and converted to
/// sRGB per the options' colour space (with `.preserve` they stay as decoded).
final class JXLAnimatedImageDecoder: AnimatedImageDecoder {
    let format = ImageFormat.jxl
    let pixelSize: PixelSize
    let loopCount: Int
    let hasAlpha: Bool
    let orientation: ImageOrientation
    private let options: ImageDecodeOptions
    private let frames: LazyFrames<JXLFrameReader>

    /// Over `reader`, fresh on `data` (its header read and checked).
    init(_ data: Data, reader: sending JXLFrameReader, options: ImageDecodeOptions) throws {
        let header = reader.header
        let durations = options.firstFrameOnly ? [0] : try JXLFrameIndex.durations(of: data, header: header, options: options)
        pixelSize = options.targetSize(forSource: header.size, frameCount: durations.count) ?? header.size
        loopCount = header.loopCount
        hasAlpha = header.hasAlpha
        orientation = header.orientation
        self.options = options
        frames = LazyFrames(reader, durations: durations)
    }

    var frameCount: Int { frames.frameCount }

    func frameDuration(at index: Int) -> Double {
        frames.duration(at: index)
    }

    func frame(at index: Int) throws -> PixelBuffer {
        try frames.frame(at: index) { reader in
            try reader.seek(to: index)
            let size = reader.header.size
            let format = reader.header.pixelFormat
            let canvas = try PixelBuffer(width: size.width, height: size.height, format: format) { raw in
                try reader.decodeNext(into: raw)
                _ = ColorManagement.manage(raw, format: format, pixelCount: size.pixelCount, profile: reader.iccProfile,
                                           options: options)
            }
            return pixelSize == size ? canvas : Resampler.resample(canvas, to: pixelSize, kernel: options.thumbnailKernel)
        }
    }
}
