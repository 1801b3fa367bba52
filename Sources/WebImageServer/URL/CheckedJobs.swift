import Synchronization

/// The jobs of recently checked image paths, so that a repeated URL (the usual cache hit) skips parsing its
/// path, its signature and its source policy: under one configuration the same path and `Accept` always make the
/// same job. Only http(s) sources are kept (a local file's check looks at the file system, which changes);
/// expiry is checked on every use.
///
/// Two generations of at most ``capacity`` entries each: a job found in the older one moves to the newer; when
/// the newer is full it becomes the older and the older is dropped. Paths longer than ``maxPathBytes`` are not
/// kept. So memory stays bounded (a few megabytes) whatever paths clients send, and paths in steady use stay.
final class CheckedJobs: Sendable {
    struct Key: Hashable, Sendable {
        let path: String
        let accept: String?
    }

    private struct Generations {
        var current: [Key: ProxyJob] = [:]
        var previous: [Key: ProxyJob] = [:]

        mutating func insert(_ job: ProxyJob, for key: Key, capacity: Int) {
            if current.count >= capacity {
                previous = current
                current = [:]
            }
            current[key] = job
        }
    }

    /// Entries a generation holds (at most twice as many in all).
    let capacity: Int
    /// The longest path kept: real image URLs are far shorter.
    static let maxPathBytes = 2048
    private let generations = Mutex(Generations())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func job(for key: Key) -> ProxyJob? {
        generations.withLock { generations in
            if let job = generations.current[key] { return job }
            guard let job = generations.previous.removeValue(forKey: key) else { return nil }
            generations.insert(job, for: key, capacity: capacity)
            return job
        }
    }

    func remember(_ job: ProxyJob, for key: Key) {
        guard job.source.scheme == "http" || job.source.scheme == "https",
              key.path.utf8.count <= Self.maxPathBytes, (key.accept?.utf8.count ?? 0) <= Self.maxPathBytes else { return }
        generations.withLock { $0.insert(job, for: key, capacity: capacity) }
    }

    var count: Int { generations.withLock { $0.current.count + $0.previous.count } }
}
