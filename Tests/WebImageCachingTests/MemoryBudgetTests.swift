import Foundation
import Testing
@testable import WebImage

/// Finite memory by default, derived from the machine (Linux sends no memory warnings).
@Suite struct MemoryBudgetTests {
    static let gib = 1 << 30

    @Test func availableMemoryIsTheLowerOfPhysicalAndTheCgroupLimit() {
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: []) == 24 * Self.gib)
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: ["max\n"]) == 24 * Self.gib)
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: ["536870912\n"]) == 512 << 20)
        // cgroup v1 writes a huge number for "no limit".
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: ["9223372036854771712"]) == 24 * Self.gib)
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: ["", "garbage", "0", "-5"]) == 24 * Self.gib)
        #expect(MemoryBudget.available(physical: 24 * Self.gib, cgroupLimits: ["max", "2147483648"]) == 2 * Self.gib)
    }

    @Test func defaultsAreSharesOfTheAvailableMemoryWithCaps() {
        #expect(MemoryBudget.memoryCacheCost(available: 24 * Self.gib) == 128 << 20)
        #expect(MemoryBudget.memoryCacheCost(available: 512 << 20) == (512 << 20) / 10)
        #expect(MemoryBudget.maxResponseBytes(available: 24 * Self.gib) == 100_000_000)
        #expect(MemoryBudget.maxResponseBytes(available: 512 << 20) == (512 << 20) / 20)
        #expect(MemoryBudget.maxResponseBytes(available: 64 << 20) == 8_000_000)
        #expect(ImageDownloader.Configuration().maxResponseBytes == MemoryBudget.defaultMaxResponseBytes)
        #expect(MemoryBudget.available > 0 && MemoryBudget.available <= Int(clamping: ProcessInfo.processInfo.physicalMemory))
    }

    @Test func theImageCacheMemoryLimitIsFiniteByDefault() {
        let configuration = ImageCache.Configuration()
        #expect(configuration.maxMemoryCost == MemoryBudget.memoryCacheCost(available: MemoryBudget.available))
        #expect(configuration.maxMemoryCost > 0 && configuration.maxMemoryCost <= 128 << 20)
        #expect(configuration.memory.costLimit == configuration.maxMemoryCost)
        #expect(configuration.memory.entryCostLimit == configuration.maxMemoryCost / 4)
        #expect(ImageCache.Configuration(maxMemoryCost: 0).memory.entryCostLimit == 0)
        #expect(ImageCache.Configuration(maxMemoryCost: 1000, maxMemoryEntryCost: 900).memory.entryCostLimit == 900)
    }

    /// The cache configuration holds its tiers' configurations; SDWebImage's flat names read and write them, and
    /// the entry limit follows the cost limit until it is set.
    @Test func theFlatNamesAreTheTiersConfigurations() {
        var configuration = ImageCache.Configuration(maxMemoryCost: 1000)
        configuration.maxMemoryCost = 4000
        #expect(configuration.memory.costLimit == 4000 && configuration.memory.entryCostLimit == 1000)
        #expect(configuration.maxMemoryEntryCost == nil)
        configuration.maxMemoryEntryCost = 300
        configuration.maxMemoryCost = 8000
        #expect(configuration.memory.entryCostLimit == 300 && configuration.maxMemoryEntryCost == 300)
        configuration.maxMemoryEntryCost = nil
        #expect(configuration.memory.entryCostLimit == 2000)
        configuration.maxMemoryCount = 7
        configuration.shouldUseWeakMemoryCache = true
        configuration.maxDiskAge = 60
        configuration.maxDiskSize = 1 << 20
        configuration.diskCacheExpireType = .modificationDate
        configuration.useExtendedAttributes = false
        #expect(configuration.memory == MemoryCache.Configuration(costLimit: 8000, countLimit: 7, shouldUseWeakCache: true,
                                                                  entryCostLimit: 2000))
        #expect(configuration.disk == DiskCache.Configuration(maxDiskAge: 60, maxDiskSize: 1 << 20,
                                                              expireType: .modificationDate, useExtendedAttributes: false))
        let nested = ImageCache.Configuration(memory: .init(costLimit: 500, entryCostLimit: 50), disk: .init(maxDiskSize: 9))
        #expect(nested.maxMemoryCost == 500 && nested.maxMemoryEntryCost == 50 && nested.maxDiskSize == 9)
    }

    @Test func anImageOverTheEntryLimitGoesToDiskButNotMemory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // 10×10 RGBA = 400 bytes; 5×5 = 100 bytes; entries up to 250 bytes are kept.
        let cache = makeImageCache(in: directory, configuration: .init(maxMemoryCost: 1000, expirationInterval: nil))
        try await cache.storeImage(makeImage(width: 5, height: 5), data: FakeCoder.bytes(width: 5, height: 5), forKey: "k")
        #expect(cache.imageFromMemoryCache(forKey: "k")?.pixelWidth == 5)
        try await cache.storeImage(makeImage(width: 10, height: 10), data: FakeCoder.bytes(width: 10, height: 10), forKey: "k")
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(cache.memoryCache.totalCost == 0)
        let fromDisk = await cache.queryImage(forKey: "k")
        #expect(fromDisk.cacheType == .disk && fromDisk.image?.pixelWidth == 10)
    }

    @Test(arguments: [0, -1, Int.min])
    func aLimitOfZeroOrLessMeansUnlimited(limit: Int) {
        let cache = MemoryCache(configuration: .init(costLimit: limit, countLimit: limit, entryCostLimit: limit))
        for index in 0..<50 { cache.setImage(makeImage(width: 16, height: 16), forKey: "\(index)") }
        #expect(cache.totalCount == 50 && cache.totalCost == 50 * 16 * 16 * 4)
    }
}
