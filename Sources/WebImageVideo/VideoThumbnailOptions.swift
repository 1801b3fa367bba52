import WebImageCore

/// The time, in seconds from the video's start, of the frame ``VideoThumbnailCoder`` decodes (imgproxy Pro's
/// `video_thumbnail_second`). Default 1; a video shorter than that gives its last frame.
///
/// ```swift
/// var options = ImageDecodeOptions()
/// options.coderOptions[VideoThumbnailSecond.self] = 12.5
/// ```
public enum VideoThumbnailSecond: ImageCoderOptionKey {
    public static let defaultValue = 1.0
}

/// Whether ``VideoThumbnailCoder`` takes the key frame at or before ``VideoThumbnailSecond`` instead of the exact
/// frame (imgproxy Pro's `video_thumbnail_keyframes`): faster, since nothing after the key frame is decoded, at
/// the cost of the frame's time. Default false.
public enum VideoThumbnailKeyframes: ImageCoderOptionKey {
    public static let defaultValue = false
}
