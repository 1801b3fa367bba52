import Foundation
import WebImageCore

extension VideoThumbnailCoder {
    /// The frames `schedule` names, each brought to `options`' thumbnail size and turned upright when it asks
    /// (`applyOrientation`): what a sprite sheet or an animation of the video is made of. The frames together are
    /// checked against `maxPixelCount` before any is decoded; in the child process when the coder has one.
    public func frames(_ data: Data, schedule: VideoFrameSchedule, options: ImageDecodeOptions) throws -> VideoFrames {
        if let childProcess { return try childProcess.frames(data, schedule: schedule, limits: limits, options: options) }
        return try Self.framesHere(data, schedule: schedule, limits: limits, options: options)
    }

    static func framesHere(_ data: Data, schedule: VideoFrameSchedule, limits: VideoLimits,
                           options: ImageDecodeOptions) throws -> VideoFrames {
        let images = try finishedFrames(data, schedule: schedule, limits: limits, options: options)
        return VideoFrames(frames: images.map { $0.pixels.converted(to: .rgba8) }, orientation: images[0].orientation)
    }

    /// The frames `schedule` names, decoded in this process and each finished as `options` ask (size, orientation).
    static func finishedFrames(_ data: Data, schedule: VideoFrameSchedule, limits: VideoLimits,
                               options: ImageDecodeOptions) throws -> [Image] {
        let format = try videoFormat(data)
        return try WorkCancellation.checking {
            try VideoContainer.open(data, limits: limits) { container in
                let probe = VideoProbe(container, format: format)
                let seconds = schedule.seconds(duration: probe.duration)
                let frameSize = options.targetSize(forSource: probe.pixelSize) ?? probe.pixelSize
                let (total, overflow) = frameSize.pixelCount.multipliedReportingOverflow(by: seconds.count)
                guard !overflow, total <= options.maxPixelCount else {
                    throw WebImageError.badImageData(.tooManyPixels(width: frameSize.width,
                                                                    height: frameSize.height * seconds.count,
                                                                    limit: options.maxPixelCount))
                }
                let decoder = try VideoFrameDecoder(container, limits: limits, maxPixelCount: options.maxPixelCount)
                var keyframes = options.coderOptions[VideoThumbnailKeyframes.self]
                if schedule.autoKeyframes, let interval = container.keyframeInterval {
                    keyframes = keyframes || schedule.interval(duration: probe.duration) >= interval
                }
                return try seconds.map { second in
                    let pixels = try decoder.frame(at: second, keyframes: keyframes)
                    return options.finish(Image(frames: [ImageFrame(pixels: pixels)], orientation: probe.orientation,
                                                format: format, hasAlpha: false), sourceSize: pixels.size)
                }
            }
        }
    }
}
