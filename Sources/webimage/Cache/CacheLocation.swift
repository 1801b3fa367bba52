import ArgumentParser
import Foundation
import WebImage

/// `--cache-dir DIR --namespace NAME`: which disk cache a command reads and writes.
///
/// The cache lives in `DIR/NAME`, exactly where `ImageCache(namespace: NAME, directory: DIR)` keeps it, so
/// `fetch`, `prefetch` and `cache` agree on it; DIR defaults to the library's
/// `DiskCache.defaultBaseDirectory` (`$XDG_CACHE_HOME/SwiftWebImage` or `~/.cache/SwiftWebImage`).
struct CacheLocation: ParsableArguments {
    @Option(help: ArgumentHelp("Base directory of the disk cache (default: the library's).", valueName: "DIR"))
    var cacheDir: String?

    @Option(help: ArgumentHelp("Cache namespace: a subdirectory of the base directory.", valueName: "NAME"))
    var namespace = "default"

    /// Fails on a namespace that is empty or would leave the base directory.
    func validate() throws {
        if namespace.isEmpty || namespace.contains("/") || namespace == "." || namespace == ".." {
            throw ValidationError("bad --namespace '\(namespace)': give a plain name without '/'")
        }
    }

    /// The base directory as a file URL.
    var baseDirectory: URL {
        cacheDir.map { URL(fileURLWithPath: $0) } ?? DiskCache.defaultBaseDirectory
    }

    /// The directory holding the entries: `DIR/NAME`.
    var path: String {
        baseDirectory.appendingPathComponent(namespace).standardizedFileURL.path
    }

    /// The image cache over this location (memory and disk), as `fetch` and `prefetch` use it.
    func makeImageCache(configuration: ImageCache.Configuration = ImageCache.Configuration()) -> ImageCache {
        ImageCache(namespace: namespace, directory: baseDirectory, configuration: configuration)
    }

    /// ``makeImageCache(configuration:)`` once the directory is proved writable: a cache that cannot store
    /// would otherwise leave a "successful" run that cached nothing. Fails with one line naming the directory.
    func openImageCache() throws -> ImageCache {
        let cache = makeImageCache()
        do {
            try cache.diskCache.checkWritable()
        } catch WebImageError.cacheFailure(_, let reason) {
            throw CLIFailure(subject: path, reason: "cannot use as the cache directory: \(reason)")
        }
        return cache
    }
}
