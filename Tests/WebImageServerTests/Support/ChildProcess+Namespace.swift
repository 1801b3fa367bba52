import Foundation
import TestSupport

/// Children whose subject could trap, or could connect somewhere it should not.
extension ChildProcess {
    /// Runs `executable arguments…` in a new network namespace whose only interface is loopback (brought up
    /// first): nothing it does can reach past this machine. As root (CI) the namespace is made directly; other
    /// users get one inside a user namespace (`unshare -r`, Debian's default allows it), where loopback
    /// connections to NIO servers were seen reset here, so only root runs are known to pass.
    static func loopbackOnly(_ executable: String, arguments: [String], timeout: Double) async throws -> ChildProcess {
        let namespace = geteuid() == 0 ? "-n" : "-rn"
        // `ip` lives in sbin, which a non-root PATH may lack.
        let script = "PATH=\"$PATH:/usr/sbin:/sbin\" ip link set lo up && exec \"$0\" \"$@\""
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return try await run(URL(fileURLWithPath: "/usr/bin/unshare"),
                             [namespace, "/bin/sh", "-c", script, executable] + arguments, environment: environment,
                             timeout: timeout)
    }
}
