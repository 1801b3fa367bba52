import CSystemShim
import Foundation
import Spawning
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child of the test process, started with `webimage_spawn` rather than Foundation's `Process`: on Linux
/// `Process.run` over-reads `/proc/self/fd` entries and crashes the whole test run now and then
/// (swift-corelibs-foundation#5472, Swift 6.3.1), and it leaves descriptors another test opens meanwhile open in
/// the child. This child has only its three standard descriptors.
///
/// A thread waits for it to end, so `exited()` suspends without holding one of the cooperative pool's threads.
public final class SpawnedProcess: Sendable {
    /// Where a standard stream of the child goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// The test process's own.
        case inherited
        /// A file: read from for standard input; created or truncated, then written, for output.
        case file(URL)
        /// A pipe whose other end is ``standardOutput`` (standard output only; a child's error output goes to a
        /// file, so a chatty child never blocks on a pipe nobody reads).
        case pipe
    }

    /// The spawn failed: the error number of `posix_spawn` or of opening a stream's file.
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public let command: String
        public var description: String { "\(command): \(String(cString: strerror(code)))" }
    }

    public let pid: Int32
    /// The read end of the child's standard output, when it is a ``Stream/pipe``.
    public let standardOutput: FileHandle?
    private let child: Mutex<SpawnedChild>
    private let reaped = DispatchGroup()

    /// Starts `executable arguments…`, with `environment` (nil: the test process's) in `directory` (nil: the test
    /// process's).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                directory: URL? = nil, stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null) throws {
        let command = ([executable.path] + arguments).joined(separator: " ")
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        func descriptor(_ stream: Stream, _ number: Int32) throws -> (child: Int32, parent: Int32?) {
            let writing = number != 0
            switch stream {
            case .null:
                return (-1, nil)
            case .inherited:
                return (number, nil)
            case .file(let url):
                let fd = writing ? open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                                 : open(url.path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw Failure(code: errno, command: command) }
                opened.append(fd)
                return (fd, nil)
            case .pipe:
                precondition(writing, "a pipe is for standard output")
                var ends: [Int32] = [-1, -1]
                guard webimage_pipe_cloexec(&ends) == 0 else { throw Failure(code: errno, command: command) }
                opened.append(ends[1])
                return (ends[1], ends[0])
            }
        }
        // Standard output last: nothing throws after its pipe is made.
        let input = try descriptor(stdin, 0)
        let errorOutput = try descriptor(stderr, 2)
        let output = try descriptor(stdout, 1)
        let spawned: SpawnedChild
        do {
            spawned = try SpawnedChild(executable.path, arguments, environment: environment, directory: directory?.path,
                                       stdin: input.child, stdout: output.child, stderr: errorOutput.child)
        } catch let failure {
            output.parent.map { _ = close($0) }
            throw Failure(code: failure.code, command: command)
        }
        pid = spawned.pid
        child = Mutex(spawned)
        standardOutput = output.parent.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        reaped.enter()
        Thread.detachNewThread { [self] in reap() }
    }

    /// How the child ended; nil while it runs.
    public var termination: SpawnedChild.Termination? { child.withLock { $0.termination } }

    public var isRunning: Bool { termination == nil }

    /// True once the child has exited; false while it runs or when a signal ended it (a trap, a crash, a kill).
    public var exitedNormally: Bool {
        if case .exited = termination { true } else { false }
    }

    /// The exit status, or the signal that ended the child (as Foundation's `terminationStatus`).
    public var terminationStatus: Int32 {
        switch termination {
        case .exited(let status), .signaled(let status): status
        case nil: -1
        }
    }

    /// Sends `signal` to the child unless it has been reaped (its pid may belong to another process then).
    public func signal(_ signal: Int32) {
        child.withLock { $0.signal(signal) }
    }

    /// SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Blocks the calling thread until the child has ended: for synchronous tests only.
    public func waitUntilExit() { reaped.wait() }

    /// Suspends until the child has ended.
    public func exited() async {
        await withCheckedContinuation { continuation in
            reaped.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Waits for the end without reaping, then reaps under the lock `signal` takes: a signal never reaches a pid
    /// the system may have handed on.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        child.withLock { _ = $0.poll() }
        reaped.leave()
    }
}
