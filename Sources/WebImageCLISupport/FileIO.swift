import Foundation
import WebImage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole files with one-line errors that name the file and the system's reason.
///
/// Plain POSIX calls rather than `Data(contentsOf:)`: Foundation's errors on Linux are long multi-line texts,
/// `strerror` gives "No such file or directory", "Permission denied", "Is a directory".
package enum FileIO {
    /// The most bytes an input is read to unless a command says otherwise: 100 MB, the library's limit for
    /// downloads and `file://` URLs (`FileTransport.defaultMaxBytes`), so `fetch` and `info` accept the same files.
    package static let defaultInputLimit = FileTransport.defaultMaxBytes

    /// The bytes of the file, device or pipe at `path`, in 64 KiB chunks and never more than `limit`; fails
    /// with `cannot read: <reason>` or `larger than the <limit>-byte input limit` (naming `limitOption`, the
    /// flag that raises it, when there is one).
    ///
    /// The size a file reports is not trusted: devices and pipes report 0, and `/dev/zero` never ends.
    package static func read(_ path: String, limit: Int, limitOption: String? = nil) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot read") }
        defer { close(fd) }
        return try read(fd, name: path, limit: limit, limitOption: limitOption)
    }

    /// Standard input, read as ``read(_:limit:limitOption:)`` reads a file; failures name it `-`.
    package static func readStandardInput(limit: Int) throws -> Data {
        try read(STDIN_FILENO, name: "-", limit: limit, limitOption: nil)
    }

    private static func read(_ fd: Int32, name: String, limit: Int, limitOption: String?) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(name, "cannot read")
            }
            if count == 0 { return data }
            guard data.count + count <= limit else {
                let raise = limitOption.map { ": raise it with \($0)" } ?? ""
                throw CLIFailure(subject: name, reason: "larger than the \(limit)-byte input limit" + raise)
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `data` to `path`, replacing it; fails with `cannot write: <reason>` and leaves no partial file.
    package static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "cannot write") }
        var written = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            while written < raw.count {
                let count = systemWrite(fd, base + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
        let failed = !ok ? failure(path, "cannot write") : nil
        let closed = close(fd) == 0
        if let failed {
            unlink(path)
            throw failed
        }
        if !closed {
            let failed = failure(path, "cannot write")
            unlink(path)
            throw failed
        }
    }

    /// Creates `path` and its missing parents; fails with `cannot create directory: <reason>`.
    package static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIFailure(subject: path, reason: "cannot create directory: a file of that name exists")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw failure(path, "cannot create directory") }
    }

    /// A failure carrying the current `errno` text.
    private static func failure(_ path: String, _ what: String) -> CLIFailure {
        CLIFailure(subject: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}

// POSIX `read`/`write` under names that do not clash with the members above.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
