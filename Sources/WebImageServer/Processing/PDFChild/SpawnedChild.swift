#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// A child process started with `posix_spawn` (`webimage_spawn`: not Foundation's `Process`, which crashes now and
/// then on Linux) and reaped here.
///
/// The child gets `stdin` and `stdout` as its standard input and output, `/dev/null` as its standard error and
/// (on Linux) no other descriptor, its own process group (so killing the group ends anything it starts), an empty signal
/// mask and default handlers for SIGPIPE and SIGXCPU (the service ignores the one, and its threads may block
/// signals).
final class SpawnedChild {
    /// How the child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    let pid: pid_t
    private(set) var termination: Termination?

    /// Starts `executable` with `arguments`, named `name` (its `argv[0]`, what `ps` shows).
    init(_ executable: String, name: String, _ arguments: [String], stdin: Int32, stdout: Int32) throws(SpawnFailure) {
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let code = webimage_spawn(&pid, executable, argv, nil, nil, stdin, stdout, -1, 1)
        guard code == 0 else { throw SpawnFailure(code: code) }
        self.pid = pid
    }

    /// How the child ended, reaping it if it just did; nil while it runs.
    func poll() -> Termination? {
        if termination == nil { wait(options: WNOHANG) }
        return termination
    }

    /// Kills the child's process group unless the child was reaped, and reaps it.
    func stop() {
        guard termination == nil else { return }
        kill(-pid, SIGKILL)
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
struct SpawnFailure: Error, CustomStringConvertible {
    let code: Int32
    var description: String { String(cString: strerror(code)) }
}
