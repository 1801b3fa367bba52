import Foundation
import Glibc
import Testing
@testable import WebImage

@Suite("Disk cache: large values written around the page cache")
struct DiskCacheLargeValueTests {
    /// Bytes that differ from block to block, so a block written twice or at the wrong offset shows.
    private static func pattern(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
    }

    @Test("values at and around the direct-write threshold, with and without a partial last block, read back whole",
          arguments: [DiskFileIO.directWriteThreshold - 1, DiskFileIO.directWriteThreshold,
                      DiskFileIO.directWriteThreshold + 1, 2 * DirectWriteBuffers.size,
                      3 * DirectWriteBuffers.size + DiskFileIO.directBlock - 1])
    func roundTrip(count: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let value = Self.pattern(count, seed: UInt64(count))
        try disk.setData(value, forKey: "large", extendedData: Data("meta".utf8))
        #expect(disk.data(forKey: "large") == value)
        #expect(disk.extendedData(forKey: "large") == Data("meta".utf8))
        #expect(disk.totalSize() == count)
    }

    @Test("a value whose bytes start at an unaligned address (a slice) is written whole")
    func unalignedSource() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let backing = Self.pattern(DiskFileIO.directWriteThreshold * 2 + 7, seed: 9)
        let slice = backing[3...]
        try disk.setData(slice, forKey: "slice")
        #expect(disk.data(forKey: "slice") == Data(slice))
    }

    @Test("the direct write covers the whole blocks and leaves the tail to ordinary writes")
    func directWriteCoversWholeBlocks() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("direct").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        let value = Self.pattern(DirectWriteBuffers.size + 3 * DiskFileIO.directBlock + 100, seed: 4)
        let flags = fcntl(fd, F_GETFL)
        let written = try value.withUnsafeBytes { try DiskFileIO.writeDirect($0, to: fd, path: path) }
        // Later writes to the descriptor go through the page cache again.
        #expect(fcntl(fd, F_GETFL) == flags)
        // The test directory is on a file system with direct I/O (ext4 here); elsewhere nothing goes direct.
        #expect(written == DirectWriteBuffers.size + 3 * DiskFileIO.directBlock || written == 0)
        value.withUnsafeBytes { buffer in
            #expect(write(fd, buffer.baseAddress! + written, buffer.count - written) == buffer.count - written)
        }
        #expect(FileManager.default.contents(atPath: path) == value)
    }
}
