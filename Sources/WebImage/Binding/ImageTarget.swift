import Foundation

/// Something that shows an image: the Linux stand-in for SDWebImage's `UIImageView` categories.
///
/// Conform a class (a view model, a node in a scene graph, a cell) and load into it with
/// `target.webImage.setImage(with:)`. The binding calls ``setImage(_:cacheType:url:)`` with the placeholder,
/// partial images and the result, on the thread the load finished on (set the context's callback queue to
/// choose one), and never with a stale result after the target was reused for another URL.
///
/// ```swift
/// final class Avatar: ImageTarget {
///     let shown = Mutex<Image?>(nil)
///     func setImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) { shown.withLock { $0 = image } }
/// }
/// avatar.webImage.setImage(with: URL(string: "https://example.com/me.png"), placeholder: grey)
/// ```
public protocol ImageTarget: AnyObject, Sendable {
    /// Shows `image` (nil clears it). `cacheType` is `.none` for placeholders and downloads.
    func setImage(_ image: Image?, cacheType: ImageCacheType, url: URL?)

    /// Shows a freshly downloaded image with an animation (SDWebImage's `sd_imageTransition`); called instead
    /// of ``setImage(_:cacheType:url:)`` for network loads, and for every load with
    /// ``WebImageOptions/forceTransition``. Default: just ``setImage(_:cacheType:url:)``.
    func transition(to image: Image?, cacheType: ImageCacheType, url: URL?)
}

extension ImageTarget {
    public func transition(to image: Image?, cacheType: ImageCacheType, url: URL?) {
        setImage(image, cacheType: cacheType, url: url)
    }

    /// The web-image binding of this target: load, cancel, and the current URL and progress.
    public var webImage: WebImageBinding { WebImageBinding(target: self) }
}
