import Foundation
import TestSupport
import Testing
import WebImage

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test("a hit returns the same instance; a miss is nil")
    func hitAndMiss() {
        let cache = MemoryCache()
        let image = makeImage()
        cache.setImage(image, forKey: "a")
        #expect(cache.image(forKey: "a") === image)
        #expect(cache.image(forKey: "b") == nil)
        #expect(cache.totalCount == 1)
        #expect(cache.totalCost == 16)
    }

    @Test("the count limit evicts the least recently used; a hit refreshes")
    func countLimitLRU() {
        let cache = MemoryCache(configuration: .init(countLimit: 3))
        for key in ["a", "b", "c"] { cache.setImage(makeImage(), forKey: key) }
        _ = cache.image(forKey: "a")
        cache.setImage(makeImage(), forKey: "d")
        #expect(cache.image(forKey: "b") == nil)
        #expect(["a", "c", "d"].allSatisfy { cache.containsImage(forKey: $0) })
        cache.setImage(makeImage(), forKey: "e")
        #expect(!cache.containsImage(forKey: "c"))
        #expect(cache.totalCount == 3)
    }

    @Test("the cost limit evicts oldest until within it; per-entry cost overrides memoryCost")
    func costLimit() {
        let cache = MemoryCache(configuration: .init(costLimit: 100))
        cache.setImage(makeImage(), forKey: "a", cost: 40)
        cache.setImage(makeImage(), forKey: "b", cost: 40)
        cache.setImage(makeImage(), forKey: "c", cost: 40)
        #expect(!cache.containsImage(forKey: "a"))
        #expect(cache.containsImage(forKey: "b") && cache.containsImage(forKey: "c"))
        #expect(cache.totalCost == 80)
        cache.setImage(makeImage(), forKey: "big", cost: 90)
        #expect(cache.totalCost == 90)
        #expect(cache.totalCount == 1)
        #expect(cache.containsImage(forKey: "big"))
    }

    @Test("the default cost is the image's memory cost; replacing adjusts the total")
    func defaultCostAndReplace() {
        let cache = MemoryCache()
        cache.setImage(makeImage(width: 10, height: 10), forKey: "a")
        #expect(cache.totalCost == 400)
        cache.setImage(makeImage(width: 5, height: 2), forKey: "a")
        #expect(cache.totalCost == 40)
        #expect(cache.totalCount == 1)
    }

    @Test("eviction order is one LRU across all keys (many keys, shards)")
    func globalLRUOrder() {
        let cache = MemoryCache(configuration: .init(countLimit: 50))
        for index in 0..<100 { cache.setImage(makeImage(), forKey: "https://example.com/\(index).jpg") }
        let kept = (0..<100).filter { cache.containsImage(forKey: "https://example.com/\($0).jpg") }
        #expect(kept == Array(50..<100))
        for index in stride(from: 50, to: 75, by: 1) { _ = cache.image(forKey: "https://example.com/\(index).jpg") }
        for index in 100..<125 { cache.setImage(makeImage(), forKey: "https://example.com/\(index).jpg") }
        let after = (0..<125).filter { cache.containsImage(forKey: "https://example.com/\($0).jpg") }
        #expect(after == Array(50..<75) + Array(100..<125))
    }

    @Test("remove and removeAll")
    func removal() {
        let cache = MemoryCache()
        cache.setImage(makeImage(), forKey: "a")
        cache.setImage(makeImage(), forKey: "b")
        cache.removeImage(forKey: "a")
        #expect(cache.image(forKey: "a") == nil)
        #expect(cache.totalCount == 1)
        cache.removeAll()
        #expect(cache.image(forKey: "b") == nil)
        #expect(cache.totalCount == 0 && cache.totalCost == 0)
    }

    @Test("weak cache: an evicted image is found while held elsewhere, and gone once released")
    func weakCache() {
        let cache = MemoryCache(configuration: .init(countLimit: 1, shouldUseWeakCache: true))
        var held: Image? = makeImage()
        cache.setImage(held!, forKey: "held")
        cache.setImage(makeImage(), forKey: "dropped")
        cache.setImage(makeImage(), forKey: "other")
        #expect(cache.totalCount == 1)
        #expect(cache.image(forKey: "held") === held)
        #expect(cache.image(forKey: "dropped") == nil)
        cache.setImage(makeImage(), forKey: "again")
        held = nil
        #expect(cache.image(forKey: "held") == nil)
    }

    @Test("without the weak cache an evicted image is gone even while held")
    func noWeakCache() {
        let cache = MemoryCache(configuration: .init(countLimit: 1))
        let held = makeImage()
        cache.setImage(held, forKey: "held")
        cache.setImage(makeImage(), forKey: "other")
        #expect(cache.image(forKey: "held") == nil)
    }

    @Test("purge drops strong entries; the weak cache keeps held ones findable; removeAll forgets them")
    func purge() {
        let cache = MemoryCache(configuration: .init(shouldUseWeakCache: true))
        let held = makeImage()
        cache.setImage(held, forKey: "held")
        cache.setImage(makeImage(), forKey: "loose")
        cache.purge()
        #expect(cache.totalCount == 0 && cache.totalCost == 0)
        #expect(cache.image(forKey: "loose") == nil)
        #expect(cache.image(forKey: "held") === held)
        #expect(cache.totalCount == 1)
        cache.purge()
        cache.removeAll()
        #expect(cache.image(forKey: "held") == nil)
    }

    @Test("concurrent sets and gets keep totals consistent")
    func concurrentTotals() async {
        let cache = MemoryCache(configuration: .init(countLimit: 64))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<2_000 {
                        let key = "k\((index * 7 + worker) % 200)"
                        if index % 3 == 0 { cache.removeImage(forKey: key) } else { cache.setImage(makeImage(), forKey: key) }
                        _ = cache.image(forKey: key)
                    }
                }
            }
        }
        let present = (0..<200).filter { cache.containsImage(forKey: "k\($0)") }.count
        #expect(cache.totalCount == present)
        #expect(cache.totalCount <= 64)
        #expect(cache.totalCost == present * 16)
    }
}

@Suite("Memory cache: reference model")
struct MemoryCacheModelTests {
    /// The cache against a model of its documented order: a store stamps an entry newer than everything
    /// before it; a hit stamps it newer than every earlier store, tied with other hits since that store. Each
    /// eviction must take an entry with the oldest stamp. Enough keys to grow, collide in and shift back every
    /// shard's index many times.
    @Test("20,000 random operations evict in the documented recency order")
    func matchesReferenceModel() {
        let limit = 150
        let cache = MemoryCache(configuration: .init(countLimit: limit))
        var stamps: [String: UInt64] = [:]
        var images: [String: Image] = [:]
        var stores: UInt64 = 0
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            let key = "https://example.com/\(generator.next() % 400).jpg"
            switch generator.next() % 10 {
            case 0..<4:
                let image = makeImage()
                cache.setImage(image, forKey: key)
                stores += 1
                stamps[key] = 2 * stores
                images[key] = image
                guard stamps.count > limit else { continue }
                let evicted = stamps.keys.filter { !cache.containsImage(forKey: $0) }
                #expect(evicted.count == 1)
                guard let gone = evicted.first else { return }
                #expect(stamps[gone] == stamps.values.min(), "\(gone) left before an older entry")
                stamps[gone] = nil
                images[gone] = nil
            case 4..<8:
                let hit = cache.image(forKey: key)
                #expect(hit === images[key])
                if hit != nil { stamps[key] = 2 * stores + 1 }
            default:
                cache.removeImage(forKey: key)
                stamps[key] = nil
                images[key] = nil
            }
        }
        #expect(cache.totalCount == stamps.count)
    }

    @Test("hits between two stores are all newer than those stores: the unhit entries leave first")
    func hitsOutliveEarlierStores() {
        let cache = MemoryCache(configuration: .init(countLimit: 40))
        let keys = (0..<40).map { "https://example.com/\($0).png" }
        for key in keys { cache.setImage(makeImage(), forKey: key) }
        for key in keys[..<20] { _ = cache.image(forKey: key) }
        for index in 40..<60 { cache.setImage(makeImage(), forKey: "https://example.com/\(index).png") }
        #expect(keys.filter { cache.containsImage(forKey: $0) } == Array(keys[..<20]))
    }
}
