import Foundation
import Synchronization
import WebImage

/// A cache of an app's own (encoded bytes in a dictionary), written against ``ImageCaching`` alone.
final class DictionaryCache: ImageCaching {
    private let entries = Mutex<[String: Data]>([:])

    var keys: Set<String> { entries.withLock { Set($0.keys) } }

    func queryImage(forKey key: String?, options: ImageCacheOptions, context: ImageCacheQueryContext,
                    cacheType: ImageCacheType,
                    completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        let data = key.flatMap { key in entries.withLock { $0[key] } }
        let decodeOptions = context.decodeOptions ?? ImageDecodeOptions(cacheKey: key)
        guard cacheType.includesDisk, let data, let image = try? CodersManager.shared.decode(data, options: decodeOptions)
        else {
            completion(.miss)
            return .completed()
        }
        completion(ImageCacheQueryResult(image: image, data: data, cacheType: .disk))
        return .completed()
    }

    func storeImage(_ image: Image?, data: Data?, forKey key: String?, cacheType: ImageCacheType,
                    completion: (@Sendable (WebImageError?) -> Void)?) -> CacheToken {
        var error: WebImageError?
        if let key, cacheType.includesDisk {
            do {
                let bytes = try data ?? image.map { try CodersManager.shared.encode($0, as: .png, options: ImageEncodeOptions()) }
                entries.withLock { $0[key] = bytes }
            } catch let encodeError as WebImageError {
                error = encodeError
            } catch {}
        }
        completion?(error)
        return .completed()
    }

    func removeImage(forKey key: String?, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        if let key { _ = entries.withLock { $0.removeValue(forKey: key) } }
        completion?()
        return .completed()
    }

    func containsImage(forKey key: String?, cacheType: ImageCacheType,
                       completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken {
        let found = key.map { key in entries.withLock { $0[key] != nil } } ?? false
        completion(found && cacheType.includesDisk ? .disk : .none)
        return .completed()
    }

    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        if cacheType.includesDisk { entries.withLock { $0.removeAll() } }
        completion?()
        return .completed()
    }
}
