import Foundation

/// What the image manager needs from a cache (SDWebImage's `SDImageCache` protocol): query, store, remove,
/// contains and clear, each answering through a completion and returning a cancellable ``CacheToken``.
///
/// ``ImageCache`` is the default implementation; ``CachesManager`` combines several. Async forms of every
/// operation come from an extension; cancelling the task cancels the token.
public protocol ImageCaching: AnyObject, Sendable {
    /// Looks `key` up in the caches `cacheType` selects; answers `.miss` for a nil key, `.none` or a cancel.
    @discardableResult
    func queryImage(forKey key: String?, options: ImageCacheOptions, context: ImageCacheQueryContext,
                    cacheType: ImageCacheType,
                    completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken

    /// Stores the image (and its original bytes, when given) in the caches `cacheType` selects; answers nil
    /// or the error that kept it off disk (``WebImageError/cancelled`` when cancelled first).
    @discardableResult
    func storeImage(_ image: Image?, data: Data?, forKey key: String?, cacheType: ImageCacheType,
                    completion: (@Sendable (WebImageError?) -> Void)?) -> CacheToken

    /// Removes `key` from the caches `cacheType` selects.
    @discardableResult
    func removeImage(forKey key: String?, cacheType: ImageCacheType,
                     completion: (@Sendable () -> Void)?) -> CacheToken

    /// Where `key` is cached (`.memory` before `.disk`), or `.none`.
    @discardableResult
    func containsImage(forKey key: String?, cacheType: ImageCacheType,
                       completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken

    /// Empties the caches `cacheType` selects.
    @discardableResult
    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken
}

extension ImageCaching {
    /// Async ``queryImage(forKey:options:context:cacheType:completion:)``; a cancelled task answers `.miss`.
    public func queryImage(forKey key: String?, options: ImageCacheOptions = [],
                           context: ImageCacheQueryContext = ImageCacheQueryContext(),
                           cacheType: ImageCacheType = .all) async -> ImageCacheQueryResult {
        await awaitToken { self.queryImage(forKey: key, options: options, context: context, cacheType: cacheType,
                                           completion: $0) }
    }

    /// Async ``storeImage(_:data:forKey:cacheType:completion:)``: throws what kept the entry off disk.
    public func storeImage(_ image: Image?, data: Data? = nil, forKey key: String?,
                           cacheType: ImageCacheType = .all) async throws {
        let error = await awaitToken { done in
            self.storeImage(image, data: data, forKey: key, cacheType: cacheType) { done($0) }
        }
        if let error { throw error }
    }

    /// Async ``removeImage(forKey:cacheType:completion:)``.
    public func removeImage(forKey key: String?, cacheType: ImageCacheType = .all) async {
        await awaitToken { done in self.removeImage(forKey: key, cacheType: cacheType) { done(()) } }
    }

    /// Async ``containsImage(forKey:cacheType:completion:)``.
    public func containsImage(forKey key: String?, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        await awaitToken { self.containsImage(forKey: key, cacheType: cacheType, completion: $0) }
    }

    /// Async ``clear(cacheType:completion:)``.
    public func clear(cacheType: ImageCacheType = .all) async {
        await awaitToken { done in self.clear(cacheType: cacheType) { done(()) } }
    }
}

/// Runs a callback-form operation as `async`, cancelling its token when the task is cancelled.
///
/// The token answers exactly once (with its cancelled value on cancel), so the continuation resumes once.
func awaitToken<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> CacheToken) async -> T {
    let holder = TokenHolder()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            holder.hold(start { continuation.resume(returning: $0) })
        }
    } onCancel: {
        holder.cancel()
    }
}
