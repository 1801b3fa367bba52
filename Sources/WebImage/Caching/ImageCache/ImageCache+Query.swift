import Foundation
import Logging

/// One disk read-and-decode that concurrent queries share: the key and everything that shapes the result.
struct DiskQuery: Hashable, Sendable {
    var key: String
    var decodeOptions: ImageDecodeOptions
    var writesBackToMemory: Bool
}

/// A disk entry read for a query, decoded off the I/O queue.
struct DiskEntry: Sendable {
    var data: Data
    var extendedData: Data?
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
            return answerNow(countDisk(lookUpOnDisk(query)), completion)
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

    /// Reads once for every waiter still interested (skipped when all of them cancelled), then decodes on the
    /// concurrent decode queue so disk hits decode on every core while reads keep their order on the I/O queue.
    private func runSharedDiskQuery(_ query: DiskQuery) {
        let anyoneWaiting = inflight.withLock { $0[query]?.contains { !$0.token.isFinished } ?? false }
        guard anyoneWaiting else { return finishSharedDiskQuery(query, .miss) }
        // Waiting here holds the I/O queue back, so reads never run ahead of decodes with bytes in memory.
        decodeSlots.wait()
        guard let entry = readFromDisk(query) else {
            decodeSlots.signal()
            return finishSharedDiskQuery(query, .miss)
        }
        decoding.async {
            let decoded = self.decode(entry, query)
            self.decodeSlots.signal()
            let (result, corrupt) = self.answer(for: decoded, query)
            guard let corrupt else { return self.finishSharedDiskQuery(query, result) }
            self.io.submit {
                self.removeCorruptEntry(entry, query, corrupt)
                self.finishSharedDiskQuery(query, result)
            }
        }
    }

    private func finishSharedDiskQuery(_ query: DiskQuery, _ result: ImageCacheQueryResult) {
        let waiters = inflight.withLock { $0.removeValue(forKey: query) ?? [] }
        for waiter in waiters where waiter.token.complete() { waiter.completion(countDisk(result)) }
    }

    /// Counts a disk query's answer to one caller as a disk hit or miss.
    private func countDisk(_ result: ImageCacheQueryResult) -> ImageCacheQueryResult {
        (result.cacheType == .disk ? instruments.diskHits : instruments.diskMisses).increment()
        return result
    }

    /// Reads and decodes one disk entry on the caller's thread (the read itself in order on the I/O queue).
    func lookUpOnDisk(_ query: DiskQuery) -> ImageCacheQueryResult {
        guard let entry = io.sync({ readFromDisk(query) }) else { return .miss }
        let (result, corrupt) = answer(for: decode(entry, query), query)
        if let corrupt { io.sync { removeCorruptEntry(entry, query, corrupt) } }
        return result
    }

    /// A disk entry's bytes and extended data, read on the I/O queue.
    private func readFromDisk(_ query: DiskQuery) -> DiskEntry? {
        guard let data = diskCache.data(forKey: query.key) else {
            instruments.logger.debug("disk cache miss", metadata: ["key": "\(query.key)"])
            return nil
        }
        return DiskEntry(data: data, extendedData: diskCache.extendedData(forKey: query.key))
    }

    /// Decodes a disk entry and writes it back to memory.
    private func decode(_ entry: DiskEntry, _ query: DiskQuery) -> Result<ImageCacheQueryResult, any Error> {
        Result {
            var image = try instruments.coding.timeDecode { try coders.decode(entry.data, options: query.decodeOptions) }
            if let extended = entry.extendedData { image = image.with(extendedData: extended) }
            if query.writesBackToMemory { memoryCache.setImage(image, forKey: query.key) }
            instruments.logger.debug("disk cache hit", metadata: ["key": "\(query.key)", "bytes": "\(entry.data.count)",
                                                                  "format": "\(image.format.rawValue)"])
            return ImageCacheQueryResult(image: image, data: entry.data, cacheType: .disk)
        }
    }

    /// A decode's answer, and the failure when the entry is not an image and must be deleted before the miss
    /// is answered (so the miss never outlives the bad entry).
    private func answer(for decoded: Result<ImageCacheQueryResult, any Error>,
                        _ query: DiskQuery) -> (ImageCacheQueryResult, corrupt: WebImageError?) {
        let error: any Error
        switch decoded {
        case .success(let result): return (result, nil)
        case .failure(let failure): error = failure
        }
        let failure = error as? WebImageError ?? .badImageData(.corrupt(String(describing: error)))
        guard Self.isCorruptEntry(error) else {
            instruments.logger.debug("disk cache entry not decodable with these options",
                                     metadata: ["key": "\(query.key)", "code": "\(failure.code)", "error": "\(failure)"])
            return (.miss, nil)
        }
        return (.miss, failure)
    }

    /// Deletes a corrupt entry, on the I/O queue, unless a store has replaced it since it was read.
    private func removeCorruptEntry(_ entry: DiskEntry, _ query: DiskQuery, _ failure: WebImageError) {
        guard diskCache.data(forKey: query.key) == entry.data else { return }
        diskCache.removeData(forKey: query.key)
        instruments.logger.warning("removed a disk cache entry that does not decode",
                                   metadata: ["key": "\(query.key)", "code": "\(failure.code)", "error": "\(failure)"])
    }

    /// Whether a decode failure means the stored bytes are bad (rather than undecodable here and now).
    private static func isCorruptEntry(_ error: any Error) -> Bool {
        guard case WebImageError.badImageData(let reason) = error else { return true }
        switch reason {
        case .unsupportedFormat(let format): return format == .undefined
        case .tooManyPixels, .tooManyFrames, .animationTooLarge, .inflatesTooLarge: return false
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
