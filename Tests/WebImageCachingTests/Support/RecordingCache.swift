import Dispatch
import Foundation
import Synchronization
import WebImage

/// An ``ImageCaching`` over a dictionary that logs each call ("name.op") and each answer ("name.op.answered"),
/// answering after `delay` seconds (on a Dispatch queue), with no delay synchronously, with an infinite delay
/// never (only a cancel answers).
final class RecordingCache: ImageCaching {
    let name: String
    let log: Recorder<String>
    let delay: Double
    private let entries = Mutex<[String: Image]>([:])

    init(_ name: String, log: Recorder<String>, delay: Double = 0, keys: [String] = []) {
        self.name = name
        self.log = log
        self.delay = delay
        entries.withLock { entries in for key in keys { entries[key] = makeImage() } }
    }

    func has(_ key: String) -> Bool { entries.withLock { $0[key] != nil } }

    private func answer<T: Sendable>(_ op: String, cancelled: T, completion: (@Sendable (T) -> Void)?,
                                     _ work: @escaping @Sendable () -> T) -> CacheToken {
        log.record("\(name).\(op)")
        let token = CacheToken { completion?(cancelled) }
        let deliver: @Sendable () -> Void = {
            let value = work()
            self.log.record("\(self.name).\(op).answered")
            if token.complete() { completion?(value) }
        }
        if delay.isInfinite { return token }
        if delay > 0 { DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: deliver) } else { deliver() }
        return token
    }

    func queryImage(forKey key: String?, options: ImageCacheOptions, context: ImageCacheQueryContext,
                    cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        answer("query", cancelled: .miss, completion: completion) {
            guard let key, let image = self.entries.withLock({ $0[key] }) else { return .miss }
            return ImageCacheQueryResult(image: image, data: Data(self.name.utf8), cacheType: .memory)
        }
    }

    func storeImage(_ image: Image?, data: Data?, forKey key: String?, cacheType: ImageCacheType,
                    completion: (@Sendable (WebImageError?) -> Void)?) -> CacheToken {
        answer("store", cancelled: WebImageError.cancelled, completion: completion) {
            if let key, let image { self.entries.withLock { $0[key] = image } }
            return nil
        }
    }

    func removeImage(forKey key: String?, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        answer("remove", cancelled: (), completion: completion.map { done in { @Sendable (_: ()) in done() } }) {
            if let key { self.entries.withLock { $0[key] = nil } }
        }
    }

    func containsImage(forKey key: String?, cacheType: ImageCacheType,
                       completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken {
        answer("contains", cancelled: ImageCacheType.none, completion: completion) {
            key.map { self.has($0) } == true ? .memory : .none
        }
    }

    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        answer("clear", cancelled: (), completion: completion.map { done in { @Sendable (_: ()) in done() } }) {
            self.entries.withLock { $0 = [:] }
        }
    }
}
