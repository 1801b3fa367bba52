import Glibc

/// Read hits a ``DiskCache`` has not yet written into its files' access times.
///
/// Rewriting a file's access time is a syscall that dirties the inode, a tenth of what reading a 256 KB entry
/// costs, so a hit only rewrites it when the recorded time is at least ``writeBackInterval`` old. Every hit is
/// logged here, and this process orders entries by the later of the two times, so its trims stay exactly least
/// recently used; other processes see this one's hits at most ``writeBackInterval`` late, which is nothing
/// against ages measured in days.
struct DiskCacheAccessLog: Sendable {
    /// How stale a file's recorded access time may get before a hit rewrites it: one minute.
    static let writeBackInterval = Int64(60) * 1_000_000_000
    /// The most hits kept between listings. Forgetting them costs nothing but precision: each file's own time
    /// is already within ``writeBackInterval`` of its last hit.
    static let capacity = 10_000

    private var stamps: [String: Int64] = [:]

    /// Logs a hit on the entry file `name`.
    mutating func record(_ name: String, at stamp: timespec) {
        if stamps.count >= Self.capacity, stamps[name] == nil { stamps.removeAll(keepingCapacity: true) }
        stamps[name] = stamp.nanoseconds
    }

    /// Forgets `name` (rewritten or removed: its file's times are current again).
    mutating func forget(_ name: String) {
        stamps[name] = nil
    }

    mutating func forgetAll() {
        stamps = [:]
    }

    /// The later of the file's recorded access time and the last logged hit.
    func lastAccess(of name: String, recorded: timespec) -> timespec {
        guard let logged = stamps[name], logged > recorded.nanoseconds else { return recorded }
        return timespec(nanoseconds: logged)
    }

    /// Keeps only the hits newer than what the listed files record (the rest are on disk or gone).
    mutating func prune(listed: [String: timespec]) {
        stamps = stamps.filter { name, stamp in listed[name].map { stamp > $0.nanoseconds } ?? false }
    }
}

extension timespec {
    /// Nanoseconds since 1970.
    var nanoseconds: Int64 {
        Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec)
    }

    init(nanoseconds: Int64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
