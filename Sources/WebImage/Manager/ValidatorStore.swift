import Foundation

/// Keeps a download's HTTP validators (`ETag`, `Last-Modified`) beside its cached bytes, so a later
/// `refreshCached` load can ask the server "has it changed?".
///
/// The validators live in the disk cache as a small entry of their own under the original key plus a
/// suffix (not in the image's extended data, which belongs to the caller). Only ``ImageCache`` (possibly
/// inside a ``CachesManager``) can hold them; other caches revalidate without conditions (a full download).
/// Reads run inline on the cache's I/O executor (they are a few bytes); writes are queued on it.
enum ValidatorStore {
    static let keySuffix = "#SwiftWebImage.validators"

    static func validators(forKey key: String, in cache: any ImageCaching) -> HTTPValidators? {
        guard let imageCache = diskBacked(cache) else { return nil }
        let data = imageCache.io.sync { imageCache.diskCache.data(forKey: key + keySuffix) }
        return data.flatMap(decode)
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
