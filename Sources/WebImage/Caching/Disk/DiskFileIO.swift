import Foundation
import Glibc
import Synchronization

/// The POSIX file operations under ``DiskCache``: atomic replace, whole-file reads, explicit timestamps and
/// extended attributes.
///
/// Plain syscalls rather than `FileManager`: the cache needs the exact errno (to recreate a deleted
/// directory, to fall back from xattrs), timestamps it sets itself, and no extra copies of the bytes.
enum DiskFileIO {
    /// A failed syscall: which call, on what, and `strerror`'s text.
    struct Failure: Error {
        var errno: Int32
        var message: String

        init(_ call: String, _ path: String, errno code: Int32 = Glibc.errno) {
            errno = code
            message = "\(call)(\(path)): \(String(cString: strerror(code)))"
        }

        init(errno: Int32, message: String) {
            self.errno = errno
            self.message = message
        }
    }

    /// The temporary-file prefix; names starting with "." are never entries.
    static let temporaryPrefix = ".tmp-"

    /// A new temporary name: this process's random tag and a counter (`UUID()` would read `/dev/urandom` on
    /// every store); `O_EXCL` still refuses a name that exists.
    static func temporaryName() -> String {
        temporaryPrefix + processTag + "-" + String(temporaryCounter.add(1, ordering: .relaxed).newValue, radix: 36)
    }

    private static let processTag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private static let temporaryCounter = Atomic<UInt64>(0)

    /// Writes `data` to a new temporary file beside `path`, then renames it over `path`.
    ///
    /// Readers (in this or another process) see the old file or the complete new one, never a partial one;
    /// a process killed mid-write leaves only a temporary file, which cleanup removes. `stamp` becomes the
    /// file's access and modification time; `prepare` runs on the open descriptor before the rename (to
    /// attach extended attributes atomically with the bytes).
    static func atomicWrite(_ data: Data, to path: String, directory: String, stamp: timespec, durable: Bool,
                            prepare: (Int32) throws -> Void) throws {
        let temporary = directory + "/" + temporaryName()
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure("open", temporary) }
        do {
            try writeAll(data, to: fd, path: temporary)
            if durable, fsync(fd) != 0 { throw Failure("fsync", temporary) }
            var times = [stamp, stamp]
            if futimens(fd, &times) != 0 { throw Failure("futimens", temporary) }
            try prepare(fd)
            guard close(fd) == 0 else {
                let failure = Failure("close", temporary)
                unlink(temporary)
                throw failure
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = Failure("rename", path)
            unlink(temporary)
            throw failure
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = buffer.count >= directWriteThreshold ? try writeDirect(buffer, to: fd, path: path) : 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure("write", path)
                }
                offset += written
            }
        }
    }

    /// The whole file, or nil when it does not exist or cannot be read; with `accessStamp`, records the read
    /// as the file's access time unless the recorded one is less than `staleness` nanoseconds older.
    static func read(_ path: String, accessStamp: timespec?, staleness: Int64 = 0) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        // Uninitialised memory handed to Data without a copy: zero-filling 256 KB first costs a third more.
        // Cache-line aligned, as the page cache it is copied from is: the kernel's copy into a buffer 16 bytes
        // off (where malloc puts large blocks) runs a fifth slower. (posix_memalign maps fresh pages each time.)
        let size = Int(info.st_size)
        guard let block = malloc(size + 64) else { return nil }
        let buffer = block + (64 - Int(bitPattern: block) % 64) % 64
        var offset = 0
        while offset < size {
            let got = Glibc.read(fd, buffer + offset, size - offset)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            offset += got
        }
        guard offset == size else {
            free(block)
            return nil
        }
        let data = Data(bytesNoCopy: buffer, count: size, deallocator: .custom { _, _ in free(block) })
        if let accessStamp, accessStamp.nanoseconds - info.st_atim.nanoseconds >= staleness {
            var times = [accessStamp, timespec(tv_sec: 0, tv_nsec: utimeOmit)]
            _ = futimens(fd, &times)
        }
        return data
    }

    /// `UTIME_OMIT` (a macro Swift does not import): leave this timestamp unchanged.
    static let utimeOmit = (1 << 30) - 2

    /// Whether `path` names an existing regular file.
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A regular file's size and dates.
    typealias Attributes = (size: Int, accessed: timespec, modified: timespec)

    /// Size and dates of a regular file, or nil.
    static func attributes(_ path: String) -> Attributes? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), info.st_atim, info.st_mtim)
    }

    /// Creates `path` and its missing parents; the failure names the directory that could not be made and
    /// `strerror`'s reason (Foundation's text on Linux is a long, vague paragraph).
    static func makeDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw Failure("mkdir", path, errno: EEXIST) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw Failure("mkdir", path) }
    }

    // MARK: Extended attributes

    /// Sets `user.<name>` on an open file; false (and no throw) when the file system has no user xattrs.
    static func setAttribute(_ name: String, _ value: Data, fd: Int32, path: String) throws -> Bool {
        let result = value.withUnsafeBytes { XAttr.fsetxattr(fd, name, $0.baseAddress, $0.count, 0) }
        if result == 0 { return true }
        if errno == ENOTSUP || errno == EPERM { return false }
        throw Failure("fsetxattr", path)
    }

    /// The attribute's value; `.unsupported` when the file system has no user xattrs.
    enum AttributeRead {
        case value(Data)
        case absent
        case unsupported
    }

    static func attribute(_ name: String, path: String) -> AttributeRead {
        let size = XAttr.getxattr(path, name, nil, 0)
        guard size >= 0 else { return errno == ENOTSUP ? .unsupported : .absent }
        var data = Data(count: size)
        let got = data.withUnsafeMutableBytes { XAttr.getxattr(path, name, $0.baseAddress, size) }
        guard got >= 0 else { return .absent }
        return .value(data.prefix(got))
    }

    // MARK: Time

    private static let lastStamp = Mutex<Int64>(0)

    /// The current wall-clock time as a `timespec`, strictly later than the previous call's in this process,
    /// so entries written or read one after another never tie (the kernel's file clock is coarse).
    static func uniqueStamp() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanos = lastStamp.withLock { last in
            last = max(now.nanoseconds, last + 1)
            return last
        }
        return timespec(nanoseconds: nanos)
    }
}

extension timespec {
    /// Seconds since 1970 as a `Date`.
    var date: Date {
        Date(timeIntervalSince1970: Double(tv_sec) + Double(tv_nsec) / 1e9)
    }
}
