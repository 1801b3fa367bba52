import CSystemShim
import Glibc
import Synchronization

extension DiskFileIO {
    /// Values at least this large are written around the page cache (direct I/O): copying megabytes into newly
    /// allocated page-cache pages cost about 3 ms of CPU a megabyte on the virtual machines measured (20 ms for a
    /// 7 MB source), a direct write under a millisecond. Smaller values, and every file's last partial block, go
    /// through the page cache, where a read soon after finds them.
    static let directWriteThreshold = 1 << 20

    /// The block direct writes align their memory, offsets and lengths to (a page: every device's logical block
    /// divides it).
    static let directBlock = 4096

    /// Writes the leading whole blocks of `buffer` to `fd` (at its start) with direct I/O, through a reused
    /// aligned buffer; returns how many bytes it wrote, which the caller finishes with ordinary writes. Writes
    /// nothing where the file system has no direct I/O; stops early (and the caller carries on) after a short write.
    static func writeDirect(_ buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws -> Int {
        let whole = buffer.count / directBlock * directBlock
        guard whole > 0, webimage_set_direct_io(fd, 1) == 0 else { return 0 }
        defer { _ = webimage_set_direct_io(fd, 0) }
        let bounce = DirectWriteBuffers.shared.take()
        defer { DirectWriteBuffers.shared.give(bounce) }
        var offset = 0
        while offset < whole {
            let count = min(DirectWriteBuffers.size, whole - offset)
            bounce.copyMemory(from: buffer.baseAddress! + offset, byteCount: count)
            let written = write(fd, bounce, count)
            if written < 0 {
                if errno == EINTR { continue }
                // Refused before anything was written: a file system that takes the flag but not the write.
                if errno == EINVAL, offset == 0 { return 0 }
                throw Failure("write", path)
            }
            offset += written
            // A short write leaves the offset unaligned: the rest goes through the page cache.
            if written != count { return offset }
        }
        return offset
    }
}

/// Page-aligned buffers direct writes copy through, kept for the next write: a new one would be faulted in page by
/// page on every write, costing most of what the direct write saves.
final class DirectWriteBuffers: Sendable {
    static let shared = DirectWriteBuffers()
    /// Bytes per buffer, and so per direct write.
    static let size = 1 << 20
    /// Buffers kept when returned; more are freed (as many exist as writes run at once).
    private static let kept = 4

    /// The addresses of the buffers not taken (a buffer taken is its taker's until given back).
    private let free = Mutex<[UInt]>([])

    func take() -> UnsafeMutableRawPointer {
        free.withLock { $0.popLast() }.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            ?? .allocate(byteCount: Self.size, alignment: DiskFileIO.directBlock)
    }

    func give(_ buffer: UnsafeMutableRawPointer) {
        let kept = free.withLock { list in
            guard list.count < Self.kept else { return false }
            list.append(UInt(bitPattern: buffer))
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
