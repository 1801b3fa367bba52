import WebImageCore

/// Which frames of a video a sprite sheet or an animation is made of (imgproxy Pro's `video_thumbnail_tile` and
/// `video_thumbnail_animation`): `count` frames from `start` seconds, `step` seconds apart; a negative `step`
/// spreads them over the whole video (its duration divided by `count`).
public struct VideoFrameSchedule: Sendable, Hashable, Codable {
    public var start: Double
    public var step: Double
    public var count: Int
    /// Take key frames only once the step reaches the video's mean key frame interval (imgproxy Pro's
    /// `IMGPROXY_VIDEO_THUMBNAIL_TILE_AUTO_KEYFRAMES`). Default false.
    public var autoKeyframes: Bool

    public init(start: Double, step: Double, count: Int, autoKeyframes: Bool = false) {
        self.start = start
        self.step = step
        self.count = count
        self.autoKeyframes = autoKeyframes
    }

    /// The seconds between frames: `step`, or the duration divided by `count` when `step` is negative.
    func interval(duration: Double?) -> Double {
        step < 0 ? (duration ?? 0) / Double(max(1, count)) : step
    }

    /// The times of the frames the video has: those before its end (at least the first); all `count` when the
    /// duration is unknown.
    func seconds(duration: Double?) -> [Double] {
        let step = interval(duration: duration)
        let all = (0..<max(1, count)).map { start + Double($0) * step }
        guard let duration else { return all }
        let used = all.prefix { $0 < duration }
        return used.isEmpty ? [all[0]] : Array(used)
    }
}

/// Frames of a video read on a ``VideoFrameSchedule``: all of one size, upright when asked.
public struct VideoFrames: Sendable, Hashable {
    /// The frames the video has, in order; fewer than the schedule's count when it ends first.
    public var frames: [PixelBuffer]
    /// The orientation the frames report (`.up` once applied).
    public var orientation: ImageOrientation
}
