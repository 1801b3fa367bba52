import Foundation
import Synchronization
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
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    let orientation: ImageOrientation
    private let durations: [Double]
    private let options: ImageDecodeOptions
    private let state: Mutex<State>

    private struct State {
        let reader: JXLFrameReader
        var last: (index: Int, pixels: PixelBuffer)?
    }

    /// Over `reader`, fresh on `data` (its header read and checked).
    init(_ data: Data, reader: sending JXLFrameReader, options: ImageDecodeOptions) throws {
        let header = reader.header
        durations = options.firstFrameOnly ? [0] : try JXLFrameIndex.durations(of: data, header: header, options: options)
        frameCount = durations.count
        pixelSize = options.targetSize(forSource: header.size, frameCount: frameCount) ?? header.size
        loopCount = header.loopCount
        hasAlpha = header.hasAlpha
        orientation = header.orientation
        self.options = options
        state = Mutex(State(reader: reader))
    }

    func frameDuration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        return try state.withLock { state in
            if let last = state.last, last.index == index { return last.pixels }
            let reader = state.reader
            try reader.seek(to: index)
            let size = reader.header.size
            let format = reader.header.pixelFormat
            let canvas = try PixelBuffer(width: size.width, height: size.height, format: format) { raw in
                try reader.decodeNext(into: raw)
                _ = ColorManagement.manage(raw, format: format, pixelCount: size.pixelCount, profile: reader.iccProfile,
                                           options: options)
            }
            let pixels = pixelSize == size ? canvas : Resampler.resample(canvas, to: pixelSize)
            state.last = (index, pixels)
            return pixels
        }
    }
}
