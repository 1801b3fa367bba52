import Foundation

/// One delivery of a manager load: what the callback-form completion receives, plus the animated form.
struct ImageLoadOutcome: Sendable {
    var image: Image?
    var data: Data?
    var error: WebImageError?
    var cacheType: ImageCacheType
    /// False for progressive partial images.
    var finished: Bool
    var url: URL?
    /// Set with ``WebImageOptions/preloadAllFrames`` or ``WebImageOptions/matchAnimatedImageClass``.
    var animatedImage: AnimatedImage?

    static func failure(_ error: WebImageError, url: URL?) -> ImageLoadOutcome {
        ImageLoadOutcome(image: nil, data: nil, error: error, cacheType: .none, finished: true, url: url)
    }
}

/// A finished load from the `async` API.
public struct ImageLoadResult: Sendable {
    /// The final image (transformed and thumbnailed as asked).
    public var image: Image
    /// The original bytes when they were read or downloaded and decode to ``image``; nil for memory hits
    /// without `queryMemoryData`, and nil when ``image`` was transformed or is a thumbnail of larger bytes
    /// (as SDWebImage, so that saving `data` never gives a file that does not match the image).
    public var data: Data?
    /// Where the image came from: `.memory`, `.disk`, or `.none` for a download.
    public var cacheType: ImageCacheType
    /// The URL loaded.
    public var url: URL
    /// The animation with frames decoded on demand, with ``WebImageOptions/preloadAllFrames`` (frames loaded)
    /// or ``WebImageOptions/matchAnimatedImageClass``; nil otherwise.
    public var animatedImage: AnimatedImage?
}

/// One event of a load observed as an `AsyncSequence` (``ImageManager/imageEvents(for:options:context:)``).
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far and expected in all (−1 while unknown).
    case progress(received: Int, expected: Int)
    /// A progressive partial image (``Image/isIncremental``), with ``WebImageOptions/progressiveLoad``.
    case partialImage(Image)
    /// A finished result. With ``WebImageOptions/refreshCached`` the cached image comes first and, if the
    /// server sent new bytes, the refreshed one second; otherwise exactly one.
    case result(ImageLoadResult)
    /// The load failed; the sequence ends after it.
    case failure(WebImageError)
    /// The load ended without an image and without an error (a cache miss with ``WebImageOptions/fromCacheOnly``,
    /// or the delegate refused the download).
    case noImage
}
