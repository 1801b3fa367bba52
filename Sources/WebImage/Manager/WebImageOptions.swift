import Foundation

/// Per-load options (SDWebImage 5's `SDWebImageOptions`), with the same names and meanings.
///
/// Options that only make sense with UIKit/AppKit are kept so code ports unchanged; each says what it does
/// here.
public struct WebImageOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Try a URL again even if it is on the failed-URL list; success takes it off the list.
    public static let retryFailed = WebImageOptions(rawValue: 1 << 0)
    /// Download with low priority (after normal and high ones in the queue).
    public static let lowPriority = WebImageOptions(rawValue: 1 << 1)
    /// Show partial images while the bytes arrive (progressive JPEG, interlaced PNG/GIF, WebP).
    public static let progressiveLoad = WebImageOptions(rawValue: 1 << 2)
    /// Deliver the cached image first, then revalidate with the server (ETag/Last-Modified); a 304 gives no
    /// second callback, new bytes give a second, refreshed image.
    public static let refreshCached = WebImageOptions(rawValue: 1 << 3)
    /// No-op on Linux (there is no app background state); kept for source compatibility.
    public static let continueInBackground = WebImageOptions(rawValue: 1 << 4)
    /// Send and store cookies for the request.
    public static let handleCookies = WebImageOptions(rawValue: 1 << 5)
    /// Accept TLS certificates that fail verification (testing only).
    public static let allowInvalidSSLCertificates = WebImageOptions(rawValue: 1 << 6)
    /// Download before normal-priority ones in the queue.
    public static let highPriority = WebImageOptions(rawValue: 1 << 7)
    /// Binding: show the placeholder only if the load fails, not while loading.
    public static let delayPlaceholder = WebImageOptions(rawValue: 1 << 8)
    /// Transform every frame of animated images too (by default they are left untransformed).
    public static let transformAnimatedImage = WebImageOptions(rawValue: 1 << 9)
    /// Binding: do not set the image on the target; the completion gets it.
    public static let avoidAutoSetImage = WebImageOptions(rawValue: 1 << 10)
    /// Decode large images scaled down to the context's scale-down limit (default 60 MB of pixels).
    public static let scaleDownLargeImages = WebImageOptions(rawValue: 1 << 11)
    /// Also read the original bytes from disk on a memory hit (the completion's `data`).
    public static let queryMemoryData = WebImageOptions(rawValue: 1 << 12)
    /// With ``queryMemoryData``, read those bytes synchronously.
    public static let queryMemoryDataSync = WebImageOptions(rawValue: 1 << 13)
    /// Query the disk cache synchronously (on the caller's thread) on a memory miss.
    public static let queryDiskDataSync = WebImageOptions(rawValue: 1 << 14)
    /// Never download: a cache miss completes with no image and no error.
    public static let fromCacheOnly = WebImageOptions(rawValue: 1 << 15)
    /// Skip the cache query and always download (the result is still stored).
    public static let fromLoaderOnly = WebImageOptions(rawValue: 1 << 16)
    /// Binding: run the transition hook for memory hits too.
    public static let forceTransition = WebImageOptions(rawValue: 1 << 17)
    /// Keep images as downloaded: no extra work after decoding (decoding itself is always done here).
    public static let avoidDecodeImage = WebImageOptions(rawValue: 1 << 18)
    /// Decode only the first frame of animations.
    public static let decodeFirstFrameOnly = WebImageOptions(rawValue: 1 << 19)
    /// Return animations with every frame decoded up front (an ``AnimatedImage`` with all frames loaded).
    public static let preloadAllFrames = WebImageOptions(rawValue: 1 << 20)
    /// Fail unless the result can be an ``AnimatedImage`` (the context's animated-image class).
    public static let matchAnimatedImageClass = WebImageOptions(rawValue: 1 << 21)
    /// Call the completion only after the image is written to the cache.
    public static let waitStoreCache = WebImageOptions(rawValue: 1 << 22)
    /// Vector images (``Image/isVector``: PDF and SVG) are transformed too. By default the manager skips the
    /// transformer for them and stores them under the key without the transformer's suffix: a vector is better
    /// rasterised at the size wanted (``ImageDecodeOptions/thumbnailPixelSize``) than transformed as a raster.
    public static let transformVectorImage = WebImageOptions(rawValue: 1 << 23)
    /// Binding: a new load does not cancel the target's previous one.
    public static let avoidAutoCancelImage = WebImageOptions(rawValue: 1 << 24)

    /// Every option by its SDWebImage name (without the `SDWebImage` prefix, lower camel case), for command
    /// lines and configuration files.
    public static let byName: [String: WebImageOptions] = [
        "retryFailed": .retryFailed, "lowPriority": .lowPriority, "progressiveLoad": .progressiveLoad,
        "refreshCached": .refreshCached, "continueInBackground": .continueInBackground,
        "handleCookies": .handleCookies, "allowInvalidSSLCertificates": .allowInvalidSSLCertificates,
        "highPriority": .highPriority, "delayPlaceholder": .delayPlaceholder,
        "transformAnimatedImage": .transformAnimatedImage, "avoidAutoSetImage": .avoidAutoSetImage,
        "scaleDownLargeImages": .scaleDownLargeImages, "queryMemoryData": .queryMemoryData,
        "queryMemoryDataSync": .queryMemoryDataSync, "queryDiskDataSync": .queryDiskDataSync,
        "fromCacheOnly": .fromCacheOnly, "fromLoaderOnly": .fromLoaderOnly, "forceTransition": .forceTransition,
        "avoidDecodeImage": .avoidDecodeImage, "decodeFirstFrameOnly": .decodeFirstFrameOnly,
        "preloadAllFrames": .preloadAllFrames, "matchAnimatedImageClass": .matchAnimatedImageClass,
        "waitStoreCache": .waitStoreCache, "transformVectorImage": .transformVectorImage,
        "avoidAutoCancelImage": .avoidAutoCancelImage,
    ]

    /// Parses a comma-separated list of option names (`refreshCached,retryFailed`); throws naming the first
    /// unknown one.
    public init(parsing list: String) throws {
        var options: WebImageOptions = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let option = Self.byName[name] else {
                throw WebImageError.invalidOption(
                    "unknown option '\(name)'; known: \(Self.byName.keys.sorted().joined(separator: ", "))")
            }
            options.insert(option)
        }
        self = options
    }
}
