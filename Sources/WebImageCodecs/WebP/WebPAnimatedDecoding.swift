import Foundation
import WebImageCore

/// Decodes every frame of an animated WebP at once (or only the first, per the options), each scaled as it
/// comes off libwebp's canvas when the options ask for a smaller size.
enum WebPAnimatedDecoding {
    static func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let reader = try WebPAnimationReader(data, options: options)
        let orientation = data.withUnsafeBytes { WebPOrientationReader.orientation(in: $0) }
        let profile = data.withUnsafeBytes { WebPICCReader.profile(in: $0) }
        if options.firstFrameOnly {
            var frames = [ImageFrame(pixels: try reader.next())]
            let color = ColorManagement.manage(&frames, profile: profile, options: options)
            let image = Image(frames: frames, orientation: orientation, loopCount: reader.loopCount, format: .webp,
                              hasAlpha: reader.hasAlpha, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
            return options.finish(image, targetSize: reader.targetSize)
        }
        var frames: [ImageFrame] = []
        frames.reserveCapacity(reader.frameCount)
        let cancellation = WorkCancellation.current
        for index in 0..<reader.frameCount {
            try cancellation?.check()
            frames.append(ImageFrame(pixels: try reader.next(), duration: reader.durations[index]))
        }
        let color = ColorManagement.manage(&frames, profile: profile, options: options)
        let image = Image(frames: frames, orientation: orientation, loopCount: reader.loopCount, format: .webp,
                          hasAlpha: reader.hasAlpha, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
        return options.finish(image, targetSize: reader.targetSize)
    }
}
