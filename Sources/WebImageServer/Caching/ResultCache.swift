import Foundation
import NIOPosix
import Synchronization
import Tracing
import WebImage

/// Finished results by result key: memory first, then disk (when the service has a cache directory), then
/// the shared tier and the result store (when the service has them). Each tier's lookup is a span
/// (``ImageProxySpans/resultCache(_:)``).
final class ResultCache: Sendable {
    private let memory: Mutex<ByteLRU<ProcessedResult>>
    private let disk: CheckedDiskStore?
    let shared: SharedTier?
    let store: ResultStore?
    private let tracing: ProxyTracing

    init(memoryLimit: Int, disk: CheckedDiskStore?, shared: SharedTier? = nil, store: ResultStore? = nil,
         tracing: ProxyTracing = ProxyTracing()) {
        self.tracing = tracing
        memory = Mutex(ByteLRU(limit: memoryLimit))
        self.disk = disk
        self.shared = shared
        self.store = store
    }

    /// The result from memory, if there.
    func memoryResult(forKey key: String) -> ProcessedResult? {
        tracing.run(ImageProxySpans.resultCache(.memory)) { span in
            let hit = storedResult(forKey: key)
            if span.isRecording { span.attributes[ImageProxySpans.Attribute.cacheHit] = hit != nil }
            return hit
        }
    }

    /// The result in memory, without a span: for a flight making a result that may have landed just now.
    func storedResult(forKey key: String) -> ProcessedResult? {
        memory.withLock { $0.value(forKey: key) }
    }

    /// The result from disk, if there and whole (then also kept in memory); reads off the cooperative pool.
    /// A stored result that fails its checksum is removed and counted, a miss.
    func diskResult(forKey key: String) async -> ProcessedResult? {
        guard let disk else { return nil }
        let stored = await tracing.lookup(ImageProxySpans.resultCache(.disk)) {
            try? await NIOThreadPool.singleton.runIfActive { () -> ProcessedResult? in
                disk.read(forKey: key) { data, extended in
                    (try? JSONDecoder().decode(ProcessedResult.Metadata.self, from: extended))
                        .map { ProcessedResult(data: data, metadata: $0) }
                }
            }
        }
        guard let stored else { return nil }
        storeInMemory(stored, forKey: key)
        return stored
    }

    /// The result from the shared tier, else from the result store, if there, with the ETag and Last-Modified it
    /// was made with; it is then kept in memory and written to disk (and a store hit to the shared tier). Asks
    /// one after the other, Redis first: its answer takes a millisecond and costs nothing, where each store read
    /// takes tens and is billed, so a Redis hit spares the store; a miss in both waits at most the two deadlines.
    /// `failed` when the shared tier's call failed (not for a plain miss).
    func sharedResult(forKey key: String) async -> (result: ProcessedResult?, failed: Bool) {
        var failed = false
        if let shared {
            switch await lookUp(.shared, { await shared.lookup(.result, forKey: key) }) {
            case .hit(let entry):
                let result = ProcessedResult(shared: entry)
                await storeLocally(result, forKey: key)
                return (result, false)
            case .miss: break
            case .failed: failed = true
            }
        }
        guard let store, case .hit(let entry) = await lookUp(.s3, { await store.lookup(forKey: key) }) else {
            return (nil, failed)
        }
        let result = ProcessedResult(shared: entry)
        shared?.storeLater(.result, forKey: key, byteCount: result.data.count, entry)
        await storeLocally(result, forKey: key)
        return (result, failed)
    }

    /// `lookup` in the span of `tier`.
    private func lookUp(_ tier: ImageProxySpans.Tier,
                        _ lookup: () async -> SharedTier.Lookup) async -> SharedTier.Lookup {
        await tracing.run(ImageProxySpans.resultCache(tier)) { span in
            let found = await lookup()
            if span.isRecording {
                let hit = if case .hit = found { true } else { false }
                span.attributes[ImageProxySpans.Attribute.cacheHit] = hit
            }
            return found
        }
    }

    /// Keeps `result` in memory, writes it to disk, and hands it to the shared tier's and the result store's
    /// background writes.
    func store(_ result: ProcessedResult, forKey key: String) async {
        shared?.storeLater(.result, forKey: key, byteCount: result.data.count, result.sharedEntry)
        store?.storeLater(forKey: key, byteCount: result.data.count, result.sharedEntry)
        await storeLocally(result, forKey: key)
    }

    private func storeLocally(_ result: ProcessedResult, forKey key: String) async {
        storeInMemory(result, forKey: key)
        guard let disk, let metadata = try? JSONEncoder().encode(result.metadata) else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive {
            try disk.write(result.data, forKey: key, extended: metadata)
        }
    }

    private func storeInMemory(_ result: ProcessedResult, forKey key: String) {
        memory.withLock { $0.set(result, forKey: key, cost: result.data.count) }
    }
}
