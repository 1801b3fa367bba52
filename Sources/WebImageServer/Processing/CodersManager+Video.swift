import WebImage
import WebImageVideo

extension CodersManager {
    /// These coders with `video` in place of any other video coder: with video sources on, every probe and frame
    /// runs in `video`'s child processes, never in the service's.
    func readingVideo(_ video: VideoThumbnailCoder) -> CodersManager {
        CodersManager(coders: coders.filter { !($0 is VideoThumbnailCoder) } + [video])
    }

    /// The video coder (``readingVideo(_:)``'s); nil while video sources are off.
    var videoCoder: VideoThumbnailCoder? {
        coders.last { $0 is VideoThumbnailCoder } as? VideoThumbnailCoder
    }
}
