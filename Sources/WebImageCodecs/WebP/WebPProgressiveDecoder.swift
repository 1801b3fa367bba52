import Foundation
import WebImageCore

/// Shows a still WebP while it downloads: each call feeds the new bytes to libwebp's incremental decoder and
/// returns the image with every row decoded so far (the rest transparent) when new rows appeared. The EXIF
/// chunk follows the image data, so partial images read `.up` until it has arrived.
///
/// The final call (`isFinished`) returns exactly what a one-shot ``WebPCoder`` decode returns. Animated WebP
/// has no useful partial form (frames are composited from whole earlier frames), so for it every call
/// returns nil until the bytes are complete, and the final call decodes the whole animation.
final class WebPProgressiveDecoder: ProgressiveImageDecoder {
    private let options: ImageDecodeOptions
    private var session: WebPIncrementalSession?
    private var isAnimated = false

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        if session == nil && !isAnimated {
            let header = isFinished ? try WebPStatus.requiredFeatures(data) : try WebPStatus.features(data)
            guard let header else { return nil }
            if header.has_animation != 0 {
                isAnimated = true
            } else {
                session = try WebPIncrementalSession(features: header, options: options)
            }
        }
        guard let session else {
            return isFinished ? try WebPAnimatedDecoding.decode(data, options: options) : nil
        }
        let hasNewRows = try session.append(data)
        if isFinished {
            guard session.isComplete else { throw WebImageError.badImageData(.truncated) }
            return image(from: session, data: data, isIncremental: false)
        }
        return hasNewRows ? image(from: session, data: data, isIncremental: true) : nil
    }

    /// The rows decoded so far, with the EXIF orientation once its chunk is among the bytes.
    private func image(from session: WebPIncrementalSession, data: Data, isIncremental: Bool) -> Image {
        let orientation = data.withUnsafeBytes { WebPOrientationReader.orientation(in: $0) }
        // ICCP comes right after VP8X, before the image data.
        let profile = data.withUnsafeBytes { WebPICCReader.profile(in: $0) }
        var pixels = session.snapshot()
        let color = ColorManagement.manage(&pixels, profile: profile, options: options)
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: orientation, format: .webp,
                          hasAlpha: session.hasAlpha, isIncremental: isIncremental, iccProfile: color.iccProfile,
                          colorProfileIssue: color.issue)
        return options.finish(image, sourceSize: session.source)
    }
}
