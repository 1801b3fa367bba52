#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// A child process started with `posix_spawn` (`webimage_spawn`: not Foundation's `Process`, whose `run()`
/// crashes now and then on Linux) and reaped here: the service's PDF renderer, and the tests' and benchmarks'
/// children (TestSupport's `SpawnedProcess`).
///
/// The child has only its standard input, output and error (each a given descriptor, or `/dev/null`), an empty
/// signal mask and default handlers for SIGPIPE and SIGXCPU (a parent may ignore the one, and its threads may
/// block signals), and when asked its own process group, so killing the group ends anything it starts.
public final class SpawnedChild {
    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    public let pid: pid_t
    public private(set) var termination: Termination?
    private let ownsGroup: Bool

    /// Starts `executable` with `arguments`, named `name` (its `argv[0]`, what `ps` shows; default `executable`),
    /// with `environment` (nil: this process's) in `directory` (nil: this process's); `stdin`, `stdout`, `stderr`
    /// are descriptors it gets as its own, -1 for `/dev/null`.
    public init(_ executable: String, name: String? = nil, _ arguments: [String], environment: [String: String]? = nil,
                directory: String? = nil, stdin: Int32 = -1, stdout: Int32 = -1, stderr: Int32 = -1,
                ownProcessGroup: Bool = false) throws(SpawnFailure) {
        let argv = ([name ?? executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid = pid_t()
        let code = (envp ?? [nil]).withUnsafeBufferPointer { environmentList in
            webimage_spawn(&pid, executable, argv, envp == nil ? nil : environmentList.baseAddress, directory,
                           stdin, stdout, stderr, ownProcessGroup ? 1 : 0)
        }
        guard code == 0 else { throw SpawnFailure(code: code) }
        self.pid = pid
        ownsGroup = ownProcessGroup
    }

    /// How the child ended, reaping it if it just did; nil while it runs.
    public func poll() -> Termination? {
        if termination == nil { wait(options: WNOHANG) }
        return termination
    }

    /// Sends `signal` to the child unless it was reaped (its pid may belong to another process then).
    public func signal(_ signal: Int32) {
        if termination == nil { kill(pid, signal) }
    }

    /// Kills the child (its whole process group when it has one) unless it was reaped, and reaps it.
    public func stop() {
        guard termination == nil else { return }
        kill(ownsGroup ? -pid : pid, SIGKILL)
        wait(options: 0)
    }

    private func wait(options: Int32) {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result < 0 && errno == EINTR
        guard result == pid else { return }
        let signal = status & 0x7F
        termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}

/// `posix_spawn`'s error: the executable is missing, not executable, or the system is out of processes.
public struct SpawnFailure: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: strerror(code)) }
}
