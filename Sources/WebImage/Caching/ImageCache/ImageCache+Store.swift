import Foundation
import Logging

extension ImageCache {
    /// Stores `image` under `key`: in memory before returning, on disk on the I/O queue.
    ///
    /// Disk gets `data` when given (the original bytes), else the untouched bytes of the animation the image
    /// was made from (``Image/animatedImageData``, as SDWebImage stores `animatedImageData`), else the image
    /// encoded as ``encodingFormat(for:)`` chooses at ``ImageEncodeEffort/fastest``; its extended data goes
    /// alongside. The completion answers nil, or the
    /// error that kept the entry off disk (``WebImageError/encodingFailed(format:reason:)``,
    /// ``WebImageError/cacheFailure(path:reason:)``; ``WebImageError/cancelled`` when cancelled before the
    /// write started). A nil key, or neither image nor data, answers nil at once and stores nothing.
    @discardableResult
    public func storeImage(_ image: Image?, data: Data? = nil, forKey key: String?, cacheType: ImageCacheType = .all,
                           completion: (@Sendable (WebImageError?) -> Void)? = nil) -> CacheToken {
        guard let key, image != nil || data != nil else { return answerNow(nil, completion) }
        if cacheType.includesMemory, configuration.shouldCacheImagesInMemory, let image {
            memoryCache.setImage(image, forKey: key)
            instruments.memoryStores.increment()
        }
        guard cacheType.includesDisk else { return answerNow(nil, completion) }
        return ioOperation(cancelled: WebImageError.cancelled, completion: completion) {
            self.writeToDisk(image, data: data, forKey: key)
        }
    }

    /// Stores an ``AnimatedImage``: its original bytes on disk, and in memory (when `cacheType` includes it)
    /// the image of all its frames, decoding those not preloaded.
    @discardableResult
    public func storeImage(_ animatedImage: AnimatedImage, forKey key: String?, cacheType: ImageCacheType = .all,
                           completion: (@Sendable (WebImageError?) -> Void)? = nil) -> CacheToken {
        let image = cacheType.includesMemory ? try? animatedImage.makeImage() : nil
        return storeImage(image, data: animatedImage.data, forKey: key, cacheType: cacheType, completion: completion)
    }

    /// Async ``storeImage(_:forKey:cacheType:completion:)`` for an ``AnimatedImage``.
    public func storeImage(_ animatedImage: AnimatedImage, forKey key: String?, cacheType: ImageCacheType = .all)
        async throws {
        let error = await awaitToken { done in self.storeImage(animatedImage, forKey: key, cacheType: cacheType) { done($0) } }
        if let error { throw error }
    }

    /// Stores raw bytes on disk only (never touching memory), on the I/O queue.
    @discardableResult
    public func storeImageDataToDisk(_ data: Data, forKey key: String,
                                     completion: (@Sendable (WebImageError?) -> Void)? = nil) -> CacheToken {
        ioOperation(cancelled: WebImageError.cancelled, completion: completion) {
            self.writeToDisk(nil, data: data, forKey: key)
        }
    }

    /// Async ``storeImageDataToDisk(_:forKey:completion:)``.
    public func storeImageDataToDisk(_ data: Data, forKey key: String) async throws {
        let error = await awaitToken { done in self.storeImageDataToDisk(data, forKey: key) { done($0) } }
        if let error { throw error }
    }

    /// The format an image stored without its bytes is encoded in: its own format when known and encodable,
    /// else GIF for several frames, PNG when it has alpha, JPEG when opaque.
    public func encodingFormat(for image: Image) -> ImageFormat {
        if image.format != .undefined, coders.canEncode(to: image.format) { return image.format }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }

    private func writeToDisk(_ image: Image?, data: Data?, forKey key: String) -> WebImageError? {
        do {
            let bytes: Data
            if let data = data ?? image?.animatedImageData {
                bytes = data
            } else if let image {
                let format = encodingFormat(for: image)
                // Bytes only a cache reads back: the cheapest encoder settings rather than the smallest file.
                bytes = try instruments.coding.timeEncode(as: format) {
                    try coders.encode(image, as: format, options: ImageEncodeOptions(effort: .fastest))
                }
            } else {
                return nil
            }
            try diskCache.setData(bytes, forKey: key, extendedData: image?.extendedData)
            instruments.diskStores.increment()
            return nil
        } catch let error as WebImageError {
            // Disk write failures are logged (at error) by the disk cache itself.
            if case .encodingFailed = error {
                instruments.logger.warning("cannot encode an image for the disk cache",
                                           metadata: ["key": "\(key)", "code": "\(error.code)", "error": "\(error)"])
            }
            return error
        } catch {
            let failure = WebImageError.cacheFailure(path: diskCache.path(forKey: key), reason: "\(error)")
            instruments.logger.error("disk cache store failed",
                                     metadata: ["key": "\(key)", "code": "\(failure.code)", "error": "\(error)"])
            return failure
        }
    }
}
