import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end and reports its wall-clock seconds, exit status, CPU time and peak resident memory
/// (`wait4`'s `ru_utime` + `ru_stime` and `ru_maxrss`): measured in the child, never in the benchmark process.
struct ChildRun {
    var seconds: Double
    var status: Int32
    var peakRSSBytes: Int
    /// User and system CPU seconds of the child and of the descendants it waited for.
    var cpuSeconds: Double

    /// Runs `arguments[0]` with the rest as its arguments, standard output and error discarded.
    static func run(_ arguments: [String]) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw NSError(domain: "ChildRun", code: Int(spawned),
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))"])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildRun(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                        status: exitStatus, peakRSSBytes: Int(usage.ru_maxrss) * 1024,
                        cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6)
    }
}
