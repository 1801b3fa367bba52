import Foundation

/// The memory this process may use, and the default limits derived from it.
///
/// Linux sends no memory warnings, so a long-lived server's caches must be finite from the start. The
/// defaults are shares of ``available``: physical memory, or the cgroup (container) limit when one is set and
/// lower, read once per process.
public enum MemoryBudget {
    /// Bytes this process may use: the lower of physical memory and the cgroup memory limit
    /// (v2 `memory.max`, v1 `memory.limit_in_bytes`).
    public static let available: Int = available(physical: Int(clamping: ProcessInfo.processInfo.physicalMemory),
                                                 cgroupLimits: cgroupLimitTexts())

    /// ``ImageCache/Configuration-swift.struct/maxMemoryCost``'s default: 10 % of ``available``, at most
    /// 128 MiB (decoded images are large: 128 MiB holds about 100 photos of 640×480).
    public static var defaultMemoryCacheCost: Int { memoryCacheCost(available: available) }

    /// The memory-cache limit for a process with `available` bytes: 10 %, at most 128 MiB.
    public static func memoryCacheCost(available: Int) -> Int {
        min(max(0, available) / 10, 128 << 20)
    }

    /// The default largest response the downloader accepts: 5 % of ``available``, between 8 MB and 100 MB.
    public static var defaultMaxResponseBytes: Int { maxResponseBytes(available: available) }

    /// The response-size limit for a process with `available` bytes: 5 %, between 8 MB and 100 MB.
    public static func maxResponseBytes(available: Int) -> Int {
        min(max(max(0, available) / 20, 8_000_000), 100_000_000)
    }

    /// The lower of `physical` and every cgroup limit text that is a positive number ("max", an empty or
    /// unreadable file and v1's "no limit" value, which exceeds physical memory, leave `physical`).
    static func available(physical: Int, cgroupLimits: [String]) -> Int {
        cgroupLimits.compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .filter { $0 > 0 }
            .reduce(physical) { min($0, $1) }
    }

    /// The memory limits of this process's cgroup (v2, at its own path and at the mount's root, as inside a
    /// container) and of the v1 memory controller; files that do not exist are left out.
    private static func cgroupLimitTexts() -> [String] {
        var paths = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        if let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
           let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::/") }) {
            let path = line.dropFirst(3)
            if path != "/" { paths.append("/sys/fs/cgroup\(path)/memory.max") }
        }
        return paths.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
    }
}
