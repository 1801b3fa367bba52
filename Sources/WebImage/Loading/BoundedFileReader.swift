import WebImageCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files, devices and pipes in chunks, never past a byte limit.
///
/// The size a file reports is only a hint: devices and pipes report 0 (`/dev/zero` and `/dev/urandom` never
/// end) and a growing file outruns it. Reading therefore stops at the limit, not at `st_size`; only a regular
/// file already over the limit is refused before reading. Errors: `invalidDownloadResponse` (2003) when the
/// file cannot be opened or read, `responseTooLarge` (2101) past the limit.
enum BoundedFileReader {
    /// Opens `path` and runs `body` with the descriptor and, for a regular file, its size (nil otherwise).
    static func withFile<T>(_ path: String, _ body: (_ fd: Int32, _ regularFileSize: Int?) throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open file", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot read file", path) }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        return try body(fd, isRegular ? Int(info.st_size) : nil)
    }

    /// Reads up to `buffer.count` bytes (retrying interrupted reads); 0 at the end of the file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw failure("cannot read file", path) }
        }
    }

    /// Every byte of `path`, in `chunkSize` pieces; fails once more than `maxBytes` arrived.
    static func readAll(_ path: String, maxBytes: Int, chunkSize: Int = 64 * 1024) throws -> Data {
        try withFile(path) { fd, size in
            if let size, size > maxBytes { throw WebImageError.responseTooLarge(limit: maxBytes) }
            var data = Data()
            data.reserveCapacity(size ?? chunkSize)
            var chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
            while true {
                let count = try chunk.withUnsafeMutableBytes { try read(fd, into: $0, path: path) }
                if count == 0 { return data }
                guard data.count + count <= maxBytes else { throw WebImageError.responseTooLarge(limit: maxBytes) }
                data.append(contentsOf: chunk[0..<count])
            }
        }
    }

    private static func failure(_ what: String, _ path: String) -> WebImageError {
        .invalidDownloadResponse("\(what) \(path): \(String(cString: strerror(errno)))")
    }
}

/// POSIX `read` under a name that does not clash with ``BoundedFileReader/read(_:into:path:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
