import Foundation
import NIOPosix
import Synchronization
import Tracing
import WebImage

/// Finished results by result key: memory first, then disk (when the service has a cache directory), then
/// the shared tier (when the service has one). Each tier's lookup is a span (``ImageProxySpans/resultCache(_:)``).
final class ResultCache: Sendable {
    private let memory: Mutex<ByteLRU<ProcessedResult>>
    private let disk: CheckedDiskStore?
    let shared: SharedTier?
    private let tracing: ProxyTracing

    init(memoryLimit: Int, disk: CheckedDiskStore?, shared: SharedTier? = nil, tracing: ProxyTracing = ProxyTracing()) {
        self.tracing = tracing
        memory = Mutex(ByteLRU(limit: memoryLimit))
        self.disk = disk
        self.shared = shared
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

    /// The result from the shared tier, if there, with the ETag and Last-Modified it was made with; it is
    /// then kept in memory and written to disk. Waits at most the tier's deadline; `failed` when the call
    /// failed (not for a plain miss).
    func sharedResult(forKey key: String) async -> (result: ProcessedResult?, failed: Bool) {
        guard let shared else { return (nil, false) }
        let lookup = await tracing.run(ImageProxySpans.resultCache(.shared)) { span in
            let lookup = await shared.lookup(.result, forKey: key)
            if span.isRecording {
                let hit = if case .hit = lookup { true } else { false }
                span.attributes[ImageProxySpans.Attribute.cacheHit] = hit
            }
            return lookup
        }
        switch lookup {
        case .hit(let entry):
            let result = ProcessedResult(shared: entry)
            await storeLocally(result, forKey: key)
            return (result, false)
        case .miss: return (nil, false)
        case .failed: return (nil, true)
        }
    }

    /// Keeps `result` in memory, writes it to disk, and hands it to the shared tier's background writes.
    func store(_ result: ProcessedResult, forKey key: String) async {
        shared?.storeLater(.result, forKey: key, byteCount: result.data.count, result.sharedEntry)
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
