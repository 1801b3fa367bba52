import Foundation
import NIOPosix
import Synchronization
import WebImage

/// Finished results by result key: memory first, then disk (when the service has a cache directory).
final class ResultCache: Sendable {
    private let memory: Mutex<ByteLRU<ProcessedResult>>
    private let disk: DiskCache?

    init(memoryLimit: Int, disk: DiskCache?) {
        memory = Mutex(ByteLRU(limit: memoryLimit))
        self.disk = disk
    }

    /// The result from memory, if there.
    func memoryResult(forKey key: String) -> ProcessedResult? {
        memory.withLock { $0.value(forKey: key) }
    }

    /// The result from disk, if there (then also kept in memory); reads off the cooperative pool.
    func diskResult(forKey key: String) async -> ProcessedResult? {
        guard let disk else { return nil }
        let stored = try? await NIOThreadPool.singleton.runIfActive { () -> ProcessedResult? in
            guard let data = disk.data(forKey: key), let extended = disk.extendedData(forKey: key),
                  let metadata = try? JSONDecoder().decode(ProcessedResult.Metadata.self, from: extended) else {
                return nil
            }
            return ProcessedResult(data: data, metadata: metadata)
        }
        guard let stored else { return nil }
        storeInMemory(stored, forKey: key)
        return stored
    }

    /// Keeps `result` in memory and writes it to disk.
    func store(_ result: ProcessedResult, forKey key: String) async {
        storeInMemory(result, forKey: key)
        guard let disk, let metadata = try? JSONEncoder().encode(result.metadata) else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive {
            try disk.setData(result.data, forKey: key, extendedData: metadata)
        }
    }

    private func storeInMemory(_ result: ProcessedResult, forKey key: String) {
        memory.withLock { $0.set(result, forKey: key, cost: result.data.count) }
    }
}
