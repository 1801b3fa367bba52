import Foundation

/// Lets an app veto downloads and decide which failures block a URL (SDWebImage's `SDWebImageManagerDelegate`).
///
/// Both methods have defaults: every download is allowed, and the built-in rule
/// (``WebImageError/isPermanentLoadFailure``) decides blocking. Implementing ``shouldBlockFailedURL(_:error:)``
/// replaces that rule. The manager holds its delegate weakly; methods are called on the manager's threads.
public protocol ImageManagerDelegate: AnyObject, Sendable {
    /// Whether `url`, missing from the cache, may be downloaded; false completes with no image and no error.
    func shouldDownloadImage(for url: URL) -> Bool
    /// Whether a load of `url` that failed with `error` puts it on the failed-URL list. Never asked for cancels.
    func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool
}

extension ImageManagerDelegate {
    public func shouldDownloadImage(for url: URL) -> Bool { true }
    public func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool { error.isPermanentLoadFailure }
}
