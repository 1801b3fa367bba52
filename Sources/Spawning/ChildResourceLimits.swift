#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The limits a child process sets on itself before it reads what it was sent (the PDF and video children):
/// the kernel then stops it, whatever the input makes the libraries do.
package enum ChildResourceLimits {
    /// Bounds the data segment and private mappings to `memoryBytes` (`RLIMIT_DATA`: a failed allocation) and CPU
    /// time to `cpuSeconds` (`RLIMIT_CPU`: SIGXCPU, then SIGKILL a second later).
    package static func apply(memoryBytes: Int, cpuSeconds: Int) {
        set(dataResource, soft: memoryBytes, hard: memoryBytes)
        set(cpuResource, soft: cpuSeconds, hard: cpuSeconds + 1)
    }

    #if canImport(Glibc)
    private typealias Resource = __rlimit_resource_t
    private static let dataResource = Resource(RLIMIT_DATA.rawValue)
    private static let cpuResource = Resource(RLIMIT_CPU.rawValue)
    #else
    private typealias Resource = Int32
    private static let dataResource = RLIMIT_DATA
    private static let cpuResource = RLIMIT_CPU
    #endif

    private static func set(_ resource: Resource, soft: Int, hard: Int) {
        var limits = rlimit(rlim_cur: rlim_t(max(1, soft)), rlim_max: rlim_t(max(1, hard)))
        _ = setrlimit(resource, &limits)
    }
}
