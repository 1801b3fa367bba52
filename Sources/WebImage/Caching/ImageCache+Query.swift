import Foundation
import Logging

/// One disk read-and-decode that concurrent queries share: the key and everything that shapes the result.
struct DiskQuery: Hashable, Sendable {
    var key: String
    var decodeOptions: ImageDecodeOptions
    var writesBackToMemory: Bool
}

/// A caller waiting on a shared disk query.
struct DiskQueryWaiter: Sendable {
    var token: CacheToken
    var completion: @Sendable (ImageCacheQueryResult) -> Void
}

extension ImageCache {
    /// Looks `key` up: memory first (answered synchronously), then disk on the I/O queue, decoded with the
    /// context's decode options and written back to memory.
    ///
    /// - A nil key or `cacheType` `.none` answers `.miss` at once.
    /// - A memory hit answers `(image, nil, .memory)` at once; with `.queryMemoryData` the original bytes are
    ///   read from disk too (synchronously with `.queryMemoryDataSync`). A memory image decoded with options
    ///   that give other pixels than the context's (``Image/matches(decodeOptions:)``) is passed over for disk.
    /// - A disk hit answers `(image, data, .disk)` and is stored in memory unless the context's
    ///   `storeCacheType` excludes memory. `.queryDiskDataSync` reads and decodes on the caller's thread.
    /// - A disk entry that does not decode answers `.miss` and is deleted (unless it is a valid image of a
    ///   format no coder reads, or too large for the decode options).
    /// - Concurrent queries of one entry with the same decode options share one read and decode.
    /// - Cancelling the token answers `.miss` at once, exactly once.
    @discardableResult
    public func queryImage(forKey key: String?, options: ImageCacheOptions = [],
                           context: ImageCacheQueryContext = ImageCacheQueryContext(),
                           cacheType: ImageCacheType = .all,
                           completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        guard let key, cacheType != .none else { return answerNow(.miss, completion) }
        if cacheType.includesMemory {
            if let image = memoryImage(forKey: key, options: options),
               image.matches(decodeOptions: context.decodeOptions) {
                instruments.memoryHits.increment()
                instruments.traceMemoryHit(key: key)
                return answerMemoryHit(image, key: key, options: options, cacheType: cacheType, completion: completion)
            }
            instruments.memoryMisses.increment()
        }
        guard cacheType.includesDisk else { return answerNow(.miss, completion) }
        var decodeOptions = context.decodeOptions ?? ImageDecodeOptions(cacheKey: key)
        if options.contains(.decodeFirstFrameOnly) { decodeOptions.firstFrameOnly = true }
        let query = DiskQuery(key: key, decodeOptions: decodeOptions,
                              writesBackToMemory: context.storeCacheType.includesMemory
                                  && configuration.shouldCacheImagesInMemory)
        if options.contains(.queryDiskDataSync) {
            return answerNow(countDisk(io.sync { lookUpOnDisk(query) }), completion)
        }
        let token = CacheToken { completion(.miss) }
        let isFirst = inflight.withLock { inflight -> Bool in
            let waiter = DiskQueryWaiter(token: token, completion: completion)
            if inflight[query] != nil {
                inflight[query]?.append(waiter)
                return false
            }
            inflight[query] = [waiter]
            return true
        }
        if isFirst { io.submit { self.runSharedDiskQuery(query) } }
        return token
    }

    /// The memory hit, reduced to its first frame when only that was asked for.
    private func memoryImage(forKey key: String, options: ImageCacheOptions) -> Image? {
        guard let image = memoryCache.image(forKey: key) else { return nil }
        if options.contains(.decodeFirstFrameOnly), image.isAnimated {
            return image.with(frames: [image.frames[0]])
        }
        return image
    }

    private func answerMemoryHit(_ image: Image, key: String, options: ImageCacheOptions, cacheType: ImageCacheType,
                                 completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        let hit = ImageCacheQueryResult(image: image, data: nil, cacheType: .memory)
        guard options.contains(.queryMemoryData), cacheType.includesDisk else { return answerNow(hit, completion) }
        if options.contains(.queryMemoryDataSync) {
            let data = io.sync { diskCache.data(forKey: key) }
            return answerNow(ImageCacheQueryResult(image: image, data: data, cacheType: .memory), completion)
        }
        return ioOperation(cancelled: .miss, completion: completion) {
            ImageCacheQueryResult(image: image, data: self.diskCache.data(forKey: key), cacheType: .memory)
        }
    }

    /// Reads and decodes once for every waiter still interested; skipped when all of them cancelled.
    private func runSharedDiskQuery(_ query: DiskQuery) {
        let anyoneWaiting = inflight.withLock { $0[query]?.contains { !$0.token.isFinished } ?? false }
        var result = ImageCacheQueryResult.miss
        if anyoneWaiting { result = lookUpOnDisk(query) }
        let waiters = inflight.withLock { $0.removeValue(forKey: query) ?? [] }
        for waiter in waiters where waiter.token.complete() { waiter.completion(countDisk(result)) }
    }

    /// Counts a disk query's answer to one caller as a disk hit or miss.
    private func countDisk(_ result: ImageCacheQueryResult) -> ImageCacheQueryResult {
        (result.cacheType == .disk ? instruments.diskHits : instruments.diskMisses).increment()
        return result
    }

    /// Reads, decodes and writes back one disk entry; deletes entries that are not images.
    func lookUpOnDisk(_ query: DiskQuery) -> ImageCacheQueryResult {
        let logger = instruments.logger
        guard let data = diskCache.data(forKey: query.key) else {
            logger.debug("disk cache miss", metadata: ["key": "\(query.key)"])
            return .miss
        }
        do {
            var image = try instruments.coding.timeDecode { try coders.decode(data, options: query.decodeOptions) }
            if let extended = diskCache.extendedData(forKey: query.key) { image = image.with(extendedData: extended) }
            if query.writesBackToMemory { memoryCache.setImage(image, forKey: query.key) }
            logger.debug("disk cache hit", metadata: ["key": "\(query.key)", "bytes": "\(data.count)",
                                                      "format": "\(image.format.rawValue)"])
            return ImageCacheQueryResult(image: image, data: data, cacheType: .disk)
        } catch {
            let failure = error as? WebImageError ?? .badImageData(.corrupt(String(describing: error)))
            if Self.isCorruptEntry(error) {
                diskCache.removeData(forKey: query.key)
                logger.warning("removed a disk cache entry that does not decode",
                               metadata: ["key": "\(query.key)", "code": "\(failure.code)", "error": "\(failure)"])
            } else {
                logger.debug("disk cache entry not decodable with these options",
                             metadata: ["key": "\(query.key)", "code": "\(failure.code)", "error": "\(failure)"])
            }
            return .miss
        }
    }

    /// Whether a decode failure means the stored bytes are bad (rather than undecodable here and now).
    private static func isCorruptEntry(_ error: any Error) -> Bool {
        guard case WebImageError.badImageData(let reason) = error else { return true }
        switch reason {
        case .unsupportedFormat(let format): return format == .undefined
        case .tooManyPixels, .tooManyFrames, .animationTooLarge: return false
        case .empty, .truncated, .corrupt, .frameOutOfRange: return true
        }
    }

    /// Where `key` is cached: `.memory`, else `.disk` (checked on the I/O queue), else `.none`.
    @discardableResult
    public func containsImage(forKey key: String?, cacheType: ImageCacheType = .all,
                              completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken {
        guard let key, cacheType != .none else { return answerNow(.none, completion) }
        if cacheType.includesMemory, memoryCache.containsImage(forKey: key) { return answerNow(.memory, completion) }
        guard cacheType.includesDisk else { return answerNow(.none, completion) }
        return ioOperation(cancelled: ImageCacheType.none, completion: completion) {
            self.diskCache.containsData(forKey: key) ? .disk : .none
        }
    }
}
