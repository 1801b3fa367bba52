import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// Steps 1–5 through the real pipeline: loopback server, real codecs, a cache in a temporary directory.
@Suite struct ManagerCacheFlowTests {
    @Test func invalidURLsFailWith1000WithoutTouchingTheNetwork() async throws {
        try await withHarness { h async throws in
            #expect(try await loadOnce(h.manager, nil).code == 1000)
            #expect(try await loadOnce(h.manager, URL(string: "")).code == 1000)
            let recorder = Recorder<Int?>()
            h.manager.loadImage(with: "") { _, _, error, _, finished, _ in
                #expect(finished)
                recorder.append(error?.code)
            }
            h.manager.loadImage(with: String?.none) { _, _, error, _, _, _ in recorder.append(error?.code) }
            #expect(await eventually { recorder.count == 2 })
            #expect(recorder.all == [1000, 1000])
            #expect(h.server.totalRequestCount == 0)
        }
    }

    @Test func secondLoadIsASynchronousMemoryHitAndTheServerCountStays() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/a.png", width: 12, height: 10)
            let first = try await loadOnce(h.manager, url)
            #expect(first.error == nil && first.cacheType == .none && first.image?.pixelSize == PixelSize(width: 12, height: 10))
            #expect(first.data != nil)
            #expect(h.server.requestCount(for: "/a.png") == 1)
            let recorder = Recorder<ImageCacheType>()
            h.manager.loadImage(with: url) { image, _, error, cacheType, finished, loaded in
                #expect(image != nil && error == nil && finished && loaded == url)
                recorder.append(cacheType)
            }
            #expect(recorder.all == [.memory])  // delivered before loadImage returned
            #expect(h.server.requestCount(for: "/a.png") == 1)
            #expect(!h.manager.isRunning)
        }
    }

    @Test func aNewManagerOnTheSameDirectoryGetsADiskHit() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/disk.png", width: 9, height: 7)
            #expect(try await loadOnce(h.manager, url, options: .waitStoreCache).error == nil)
            let (_, second) = h.makeSecondManager()
            let hit = try await loadOnce(second, url)
            #expect(hit.cacheType == .disk && hit.image?.pixelSize == PixelSize(width: 9, height: 7) && hit.data != nil)
            #expect(h.server.requestCount(for: "/disk.png") == 1)
        }
    }

    @Test func aThousandConcurrentLoadsOfOneURLMakeOneRequest() async throws {
        try await withHarness { h async throws in
            let url = h.server.url("/many.png")
            h.server.route("/many.png", TestResponse(body: try pngData(width: 16, height: 16, rgba: [1, 2, 3, 255]),
                                                     delay: .milliseconds(200)))
            // Started from this thread, not from child tasks a busy pool could start far apart.
            let loads = (0..<1000).map { _ in h.manager.imageEvents(for: url) }
            var results: [Int?] = []
            for events in loads {
                var width: Int?
                for await event in events { if case .result(let result) = event { width = result.image.pixelWidth } }
                results.append(width)
            }
            #expect(results.count == 1000 && results.allSatisfy { $0 == 16 })
            #expect(h.server.requestCount(for: "/many.png") == 1)
        }
    }

    @Test func fromCacheOnlyMissDeliversNothingAndNeverDownloads() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/only.png")
            let miss = try await loadOnce(h.manager, url, options: .fromCacheOnly)
            #expect(miss.image == nil && miss.error == nil && miss.cacheType == .none && miss.finished && miss.url == url)
            #expect(h.server.requestCount(for: "/only.png") == 0)
            do {
                _ = try await h.manager.image(for: url, options: .fromCacheOnly)
                Issue.record("expected an error")
            } catch let error as WebImageError {
                #expect(error.code == 2000)
            }
        }
    }

    @Test func fromLoaderOnlySkipsTheCacheButStillStores() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/loader.png")
            _ = try await loadOnce(h.manager, url)
            let again = try await loadOnce(h.manager, url, options: .fromLoaderOnly)
            #expect(again.cacheType == .none && again.image != nil)
            #expect(h.server.requestCount(for: "/loader.png") == 2)
            #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString) != nil)
        }
    }

    @Test func theDelegateCanRefuseDownloads() async throws {
        final class Refuser: ImageManagerDelegate {
            func shouldDownloadImage(for url: URL) -> Bool { false }
        }
        try await withHarness { h async throws in
            let url = try h.serve("/refused.png")
            let delegate = Refuser()
            h.manager.delegate = delegate
            let result = try await loadOnce(h.manager, url)
            #expect(result.image == nil && result.error == nil && result.cacheType == .none)
            #expect(h.server.requestCount(for: "/refused.png") == 0)
        }
    }

    @Test func queryCacheTypeNoneAlwaysDownloads() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/nocache.png")
            _ = try await loadOnce(h.manager, url)
            let context = WebImageContext(queryCacheType: .none)
            #expect(try await loadOnce(h.manager, url, context: context).cacheType == .none)
            #expect(h.server.requestCount(for: "/nocache.png") == 2)
        }
    }

    @Test func storeCacheTypeMemoryLeavesTheDiskEmpty() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/memonly.png")
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache, context: WebImageContext(storeCacheType: .memory))
            #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString) != nil)
            #expect(await h.cache.containsImage(forKey: url.absoluteString, cacheType: .disk) == .none)
        }
    }

    @Test func waitStoreCacheCompletesAfterTheDiskWrite() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/wait.png")
            let path = h.cache.cachePath(forKey: url.absoluteString)
            let onDisk = Recorder<Bool>()
            h.manager.loadImage(with: url, options: .waitStoreCache) { _, _, _, _, _, _ in
                onDisk.append(FileManager.default.fileExists(atPath: path))
            }
            #expect(await eventually { onDisk.count == 1 })
            #expect(onDisk.all == [true])
        }
    }

    @Test func completionsHopToTheContextsCallbackQueue() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/queue.png")
            let queue = DispatchQueue(label: "test.callback")
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 7)
            let seen = Recorder<Int?>()
            let context = WebImageContext(callbackQueue: queue)
            h.manager.loadImage(with: url, context: context) { _, _, _, _, _, _ in seen.append(DispatchQueue.getSpecific(key: key)) }
            #expect(await eventually { seen.count == 1 })
            h.manager.loadImage(with: url, context: context) { _, _, _, cacheType, _, _ in
                #expect(cacheType == .memory)
                seen.append(DispatchQueue.getSpecific(key: key))
            }
            #expect(await eventually { seen.count == 2 })
            #expect(seen.all == [7, 7])
        }
    }
}
