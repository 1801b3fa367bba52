import Foundation

/// Keeps a download's HTTP validators (`ETag`, `Last-Modified`) beside its cached bytes, so a later
/// `refreshCached` load can ask the server "has it changed?".
///
/// The validators live in the disk cache as a small entry of their own under the original key plus a
/// suffix (not in the image's extended data, which belongs to the caller). Only ``ImageCache`` (possibly
/// inside a ``CachesManager``) can hold them; other caches revalidate without conditions (a full download).
/// Reads and writes are queued on the cache's I/O executor, in order with the image's own entry; a read
/// never waits for that queue on the caller's thread (which may be one of the cooperative pool's few).
enum ValidatorStore {
    static let keySuffix = "#SwiftWebImage.validators"

    /// Reads the validators stored for `key` and hands them to `body`: inline when already on the cache's
    /// I/O executor, else queued on it; at once (nil) when the cache cannot hold them.
    static func readValidators(forKey key: String, in cache: any ImageCaching,
                               then body: @escaping @Sendable (HTTPValidators?) -> Void) {
        guard let imageCache = diskBacked(cache) else { return body(nil) }
        let read: @Sendable () -> Void = {
            body(imageCache.diskCache.data(forKey: key + keySuffix).flatMap(decode))
        }
        if imageCache.io.isCurrent { read() } else { imageCache.io.submit(read) }
    }

    static func store(_ validators: HTTPValidators, forKey key: String, in cache: any ImageCaching) {
        guard let imageCache = diskBacked(cache) else { return }
        let data = encode(validators)
        imageCache.io.submit { try? imageCache.diskCache.setData(data, forKey: key + keySuffix) }
    }

    /// The `ImageCache` that stores originals: the cache itself, or the highest-priority one of a manager.
    private static func diskBacked(_ cache: any ImageCaching) -> ImageCache? {
        if let imageCache = cache as? ImageCache { return imageCache }
        return (cache as? CachesManager)?.caches.last as? ImageCache
    }

    /// Two lines: `E:<etag>` and `L:<last-modified>`, each only when present.
    static func encode(_ validators: HTTPValidators) -> Data {
        var lines: [String] = []
        if let etag = validators.etag { lines.append("E:" + etag) }
        if let lastModified = validators.lastModified { lines.append("L:" + lastModified) }
        return Data(lines.joined(separator: "\n").utf8)
    }

    static func decode(_ data: Data) -> HTTPValidators? {
        var validators = HTTPValidators()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("E:") { validators.etag = String(line.dropFirst(2)) }
            if line.hasPrefix("L:") { validators.lastModified = String(line.dropFirst(2)) }
        }
        return validators.etag == nil && validators.lastModified == nil ? nil : validators
    }
}
