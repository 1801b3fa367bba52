import Foundation
import Synchronization
import WebImage

/// A fresh directory under the system temporary directory; delete it with ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SwiftWebImageCacheTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// An image cache in a temporary directory with a ``FakeCoder``, and no expiry timer.
func makeImageCache(in directory: TemporaryDirectory, coder: FakeCoder = FakeCoder(),
                    configuration: ImageCache.Configuration = ImageCache.Configuration(expirationInterval: nil))
    -> ImageCache {
    ImageCache(namespace: "test", directory: directory.url, configuration: configuration,
               coders: CodersManager(coders: [coder]))
}

/// A solid `width × height` still image.
func makeImage(width: Int = 2, height: Int = 2, frames: Int = 1, alpha: Bool = false, fill: UInt8 = 7,
               format: ImageFormat = .undefined) -> Image {
    let pixels = PixelBuffer(width: width, height: height, format: .rgba8,
                             bytes: [UInt8](repeating: fill, count: width * height * 4))
    return Image(frames: (0..<frames).map { _ in ImageFrame(pixels: pixels, duration: 0.1) }, format: format,
                 hasAlpha: alpha)
}

/// Counts how often a completion ran and keeps what it was given.
final class Recorder<Value: Sendable>: Sendable {
    private let state = Mutex<[Value]>([])

    func record(_ value: Value) {
        state.withLock { $0.append(value) }
    }

    var values: [Value] { state.withLock { $0 } }
    var count: Int { values.count }
}

/// A count threads raise and wait on, to make sure the racing sides of a test really overlap.
final class Rendezvous: Sendable {
    private let count = Atomic(0)

    var value: Int { count.load(ordering: .acquiring) }

    func arrive() {
        count.add(1, ordering: .releasing)
    }

    /// Spins (yielding the core) until `expected` parties have arrived.
    func wait(for expected: Int) {
        while value < expected { sched_yield() }
    }
}
