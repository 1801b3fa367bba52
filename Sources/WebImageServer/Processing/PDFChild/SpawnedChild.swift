#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// A child process started with `posix_spawn` and reaped here. Not Foundation's `Process`: on Linux its `run()`
/// over-reads `/proc/self/fd` entries and crashes now and then (swift-corelibs-foundation#5472, seen in this
/// project's CI with Swift 6.3.1), and it leaves descriptors opened meanwhile open in the child.
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        webimage_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), defaulted = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaulted)
        sigaddset(&defaulted, SIGPIPE)
        sigaddset(&defaulted, SIGXCPU)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
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
