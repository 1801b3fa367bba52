import CJPEGShim
import Foundation
import WebImageCore

/// Decodes one JPEG download as it arrives, keeping libjpeg's state between calls (bytes already decoded
/// are never decoded again).
///
/// Progressive JPEGs yield a whole, sharper image for each newly completed scan. Baseline JPEGs yield the
/// rows decoded so far; rows not yet reached are transparent (so such partial images have `hasAlpha` true).
/// With `isFinished` the result is the final image, pixel-identical to ``JPEGCoder/decode(_:options:)`` on
/// the same bytes: both decode at the same DCT scale with TurboJPEG's IDCT and upsampling.
final class JPEGProgressiveDecoder: ProgressiveImageDecoder {
    private enum Stage {
        case header
        case starting(source: PixelSize, scaling: JPEGScaling, markers: JPEGMarkers, isCMYK: Bool)
        case decoding(source: PixelSize, markers: JPEGMarkers, color: JPEGColor)
        case finished(Image)
        case failed(WebImageError)
    }

    private let options: ImageDecodeOptions
    private let decoder: OpaquePointer?
    /// The cancellation scope's token when the decoder was made in one: libjpeg polls it (kept here so the
    /// pointer the shim holds stays valid as long as the decoder).
    private let cancellation: WorkCancellation?
    private var stage = Stage.header
    /// The output raster libjpeg writes into; partial images share it copy-on-write.
    private var canvas: PixelBuffer?

    init(options: ImageDecodeOptions) {
        self.options = options
        decoder = wi_jpeg_incremental_create()
        cancellation = WorkCancellation.current
        if let decoder, let cancellation {
            wi_jpeg_incremental_set_stop(decoder, CancellationHook.poll, Unmanaged.passUnretained(cancellation).toOpaque())
        }
    }

    deinit { wi_jpeg_incremental_destroy(decoder) }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        switch stage {
        case .finished(let image): return image
        case .failed(let error): throw error
        default: break
        }
        do {
            guard let decoder else { throw JPEGErrors.corrupt("libjpeg could not create a decoder") }
            return try data.withUnsafeBytes { raw in
                wi_jpeg_incremental_set_input(decoder, raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                              raw.count, isFinished ? 1 : 0)
                return try step(decoder, raw, isFinished: isFinished)
            }
        } catch let error as WebImageError {
            stage = .failed(error)
            throw error
        }
    }

    /// Advances through the stages as far as the bytes allow; returns the newest image, if any.
    private func step(_ decoder: OpaquePointer, _ raw: UnsafeRawBufferPointer, isFinished: Bool) throws -> Image? {
        if case .header = stage {
            var header = WIJPEGHeader()
            let status = wi_jpeg_incremental_read_header(decoder, &header)
            guard try JPEGIncrementalStatus.check(status, decoder, isFinished: isFinished) else { return nil }
            let source = PixelSize(width: Int(header.width), height: Int(header.height))
            try options.checkPixelCount(width: source.width, height: source.height)
            stage = .starting(source: source, scaling: JPEGScaling(source: source, target: options.targetSize(forSource: source)),
                              markers: JPEGMarkers(scanning: raw), isCMYK: header.is_cmyk != 0)
        }
        if case .starting(let source, let scaling, let markers, let isCMYK) = stage {
            let color = JPEGColor(markers: markers, isCMYK: isCMYK)
            var width: Int32 = 0, height: Int32 = 0
            let status = wi_jpeg_incremental_start(decoder, Int32(scaling.numerator), Int32(scaling.denominator),
                                                   &width, &height)
            guard try JPEGIncrementalStatus.check(status, decoder, isFinished: isFinished) else { return nil }
            canvas = PixelBuffer(width: Int(width), height: Int(height))
            stage = .decoding(source: source, markers: markers, color: color)
        }
        guard case .decoding(let source, let markers, let color) = stage, var pixels = canvas else { return nil }
        canvas = nil  // keep the raster uniquely referenced while libjpeg writes into it
        var rows: Int32 = 0
        var status = WI_JPEG_NEED_MORE
        // A final buffer is decoded to the end in this call: libjpeg needs at most a couple of steps once
        // every byte is there (finish the open pass, then the final one); the bound only guards against a loop.
        var steps = 0
        repeat {
            status = pixels.withUnsafeMutableBytes { out in
                wi_jpeg_incremental_advance(decoder, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &rows)
            }
            steps += 1
        } while isFinished && status == WI_JPEG_PROGRESS && steps < 8
        canvas = pixels
        if isFinished && status == WI_JPEG_PROGRESS { throw JPEGErrors.corrupt("libjpeg did not reach the end of the image") }
        switch status {
        case WI_JPEG_DONE:
            if wi_jpeg_incremental_truncated(decoder) != 0 { throw WebImageError.badImageData(.truncated) }
            canvas = nil  // `pixels` is then the raster's only owner: managed in place, not copied
            let outcome = Self.manage(&pixels, rows: pixels.height, color: color, options: options)
            let image = options.finish(Image(frames: [ImageFrame(pixels: pixels)], orientation: markers.orientation,
                                             format: .jpeg, hasAlpha: false, iccProfile: outcome.iccProfile,
                                             colorProfileIssue: outcome.issue), sourceSize: source)
            stage = .finished(image)
            return image
        case WI_JPEG_PROGRESS:
            var shown = pixels
            let outcome = Self.manage(&shown, rows: Int(rows), color: color, options: options)
            let partial = Image(frames: [ImageFrame(pixels: shown)], orientation: markers.orientation, format: .jpeg,
                                hasAlpha: Int(rows) < pixels.height, isIncremental: true, iccProfile: outcome.iccProfile,
                                colorProfileIssue: outcome.issue)
            return options.finish(partial, sourceSize: source)
        default:
            _ = try JPEGIncrementalStatus.check(status, decoder, isFinished: isFinished)
            return nil
        }
    }

    /// ``JPEGColor/manage(_:pixelCount:options:)`` on the first `rows` rows of a copy of the canvas.
    private static func manage(_ pixels: inout PixelBuffer, rows: Int, color: JPEGColor,
                               options: ImageDecodeOptions) -> ColorManagement.Outcome {
        let count = rows * pixels.width
        return pixels.withUnsafeMutableBytes { color.manage($0, pixelCount: count, options: options) }
    }
}
