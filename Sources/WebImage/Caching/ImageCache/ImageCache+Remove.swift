import Foundation
import Logging

extension ImageCache {
    /// Removes `key` from memory (at once) and/or disk (on the I/O queue).
    @discardableResult
    public func removeImage(forKey key: String?, fromMemory: Bool, fromDisk: Bool,
                            completion: (@Sendable () -> Void)? = nil) -> CacheToken {
        guard let key else { return answerNow((), unit(completion)) }
        if fromMemory { memoryCache.removeImage(forKey: key) }
        guard fromDisk else { return answerNow((), unit(completion)) }
        return ioOperation(cancelled: (), completion: unit(completion)) { self.diskCache.removeData(forKey: key) }
    }

    /// Async ``removeImage(forKey:fromMemory:fromDisk:completion:)``.
    public func removeImage(forKey key: String?, fromMemory: Bool, fromDisk: Bool) async {
        await awaitToken { done in self.removeImage(forKey: key, fromMemory: fromMemory, fromDisk: fromDisk) { done(()) } }
    }

    /// ``ImageCaching`` form of ``removeImage(forKey:fromMemory:fromDisk:completion:)``: `cacheType` picks
    /// memory, disk or both.
    @discardableResult
    public func removeImage(forKey key: String?, cacheType: ImageCacheType,
                            completion: (@Sendable () -> Void)?) -> CacheToken {
        removeImage(forKey: key, fromMemory: cacheType.includesMemory, fromDisk: cacheType.includesDisk,
                    completion: completion)
    }

    /// Empties the memory cache, weakly held images included.
    public func clearMemory() {
        memoryCache.removeAll()
        instruments.logger.debug("memory cache cleared")
    }

    /// Deletes every disk entry (on the I/O queue).
    @discardableResult
    public func clearDisk(completion: (@Sendable () -> Void)? = nil) -> CacheToken {
        ioOperation(cancelled: (), completion: unit(completion)) { self.diskCache.removeAll() }
    }

    /// Async ``clearDisk(completion:)``.
    public func clearDisk() async {
        await awaitToken { done in self.clearDisk { done(()) } }
    }

    /// Empties memory (at once) and/or disk (on the I/O queue), as `cacheType` selects.
    @discardableResult
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        if cacheType.includesMemory { clearMemory() }
        guard cacheType.includesDisk else { return answerNow((), unit(completion)) }
        return clearDisk(completion: completion)
    }

    /// Deletes expired disk entries, then trims to half the size limit if over it (on the I/O queue); also
    /// runs every ``Configuration/expirationInterval`` seconds.
    @discardableResult
    public func deleteOldFiles(completion: (@Sendable () -> Void)? = nil) -> CacheToken {
        ioOperation(cancelled: (), completion: unit(completion)) { self.diskCache.removeExpiredData() }
    }

    /// Async ``deleteOldFiles(completion:)``.
    public func deleteOldFiles() async {
        await awaitToken { done in self.deleteOldFiles { done(()) } }
    }

    /// The bytes the disk entries take (on the I/O queue).
    @discardableResult
    public func totalDiskSize(completion: @escaping @Sendable (Int) -> Void) -> CacheToken {
        ioOperation(cancelled: 0, completion: completion) { self.diskCache.totalSize() }
    }

    /// Async ``totalDiskSize(completion:)``.
    public func totalDiskSize() async -> Int {
        await awaitToken { self.totalDiskSize(completion: $0) }
    }

    /// The number of disk entries (on the I/O queue).
    @discardableResult
    public func totalDiskCount(completion: @escaping @Sendable (Int) -> Void) -> CacheToken {
        ioOperation(cancelled: 0, completion: completion) { self.diskCache.totalCount() }
    }

    /// Async ``totalDiskCount(completion:)``.
    public func totalDiskCount() async -> Int {
        await awaitToken { self.totalDiskCount(completion: $0) }
    }

    /// Moves every file of an old cache directory into this cache's and removes the old directory
    /// (on the I/O queue); answers nil or why it failed.
    @discardableResult
    public func migrateDiskCache(from oldDirectory: URL,
                                 completion: (@Sendable (WebImageError?) -> Void)? = nil) -> CacheToken {
        ioOperation(cancelled: WebImageError.cancelled, completion: completion) {
            do {
                try self.diskCache.moveItems(from: oldDirectory)
                return nil
            } catch let error as WebImageError {
                return error
            } catch {
                return .cacheFailure(path: oldDirectory.path, reason: "\(error)")
            }
        }
    }

    /// Async ``migrateDiskCache(from:completion:)``.
    public func migrateDiskCache(from oldDirectory: URL) async throws {
        let error = await awaitToken { done in self.migrateDiskCache(from: oldDirectory) { done($0) } }
        if let error { throw error }
    }
}
