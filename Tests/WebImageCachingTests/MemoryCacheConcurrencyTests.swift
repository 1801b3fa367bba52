import TestSupport
import Testing
import WebImage

@Suite("Memory cache: lock-free hits under concurrent changes")
struct MemoryCacheConcurrencyTests {
    private struct WeakImage: Sendable {
        weak var image: Image?
    }

    /// An image's width is its key's index + 1, so a hit shows which key's image it is.
    private static let keys = (0..<200).map { "https://example.com/photos/\($0).jpg" }

    @Test("3 readers hit while a writer stores, replaces, removes, evicts and clears: every hit is its key's image")
    func hitsRaceChanges() async throws {
        let cache = MemoryCache(configuration: .init(countLimit: 64))
        let keys = Self.keys
        let started = Rendezvous(), writerDone = Rendezvous()
        let readers = (0..<3).map { reader in
            Task.detached {
                try await onDedicatedThread {
                    var random = SplitMix64(seed: UInt64(reader))
                    var hits = 0, wrong = 0
                    started.arrive()
                    // Reads until the writer is done (it starts once every reader has), so the two overlap.
                    while writerDone.value == 0 {
                        let index = Int(random.next() % UInt64(keys.count))
                        if let image = cache.image(forKey: keys[index]) {
                            hits += 1
                            if image.frames[0].pixels.width != index + 1 { wrong += 1 }
                        }
                        _ = cache.containsImage(forKey: keys[Int(random.next() % UInt64(keys.count))])
                    }
                    return (hits, wrong)
                }
            }
        }
        let stored = try await onDedicatedThread {
            started.wait(for: 3)
            defer { writerDone.arrive() }
            var random = SplitMix64(seed: 99)
            var stored: [WeakImage] = []
            // Ends with 400 plain stores and removals after the last clear, so some entries remain.
            for step in 0..<29_900 {
                let index = Int(random.next() % UInt64(keys.count))
                switch step % 1_000 {
                case 499: cache.removeAll()
                case 999: cache.purge()
                default:
                    if random.next() % 4 == 0 {
                        cache.removeImage(forKey: keys[index])
                    } else {
                        let image = makeImage(width: index + 1, height: 1)
                        stored.append(WeakImage(image: image))
                        cache.setImage(image, forKey: keys[index])
                    }
                }
            }
            return stored
        }
        var hits = 0
        for reader in readers {
            let result = try await reader.value
            #expect(result.1 == 0)
            hits += result.0
        }
        #expect(hits > 0)
        // Nothing replaced, removed or evicted is kept alive once the readers are done.
        let cached = Self.keys.filter { cache.containsImage(forKey: $0) }.count
        #expect(cached == cache.totalCount)
        #expect(cached > 0 && cached <= 64)
        #expect(stored.filter { $0.image != nil }.count == cached)
    }
}
