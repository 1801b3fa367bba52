import CTIFF
import Foundation

/// The bytes libtiff reads from or writes to, behind its client procedures: a caller's buffer for reading
/// (handed to libtiff as a read-only "mapped file", so strips are decoded without a copy), or a growing array
/// for writing (libtiff seeks back to patch offsets, so it is a random-access buffer, not an append-only one).
final class TIFFMemoryStream {
    /// The file being read; empty when writing.
    private let source: UnsafeRawBufferPointer
    /// The file being written.
    private(set) var written: [UInt8] = []
    private let isWriting: Bool
    private var position = 0

    init(reading source: UnsafeRawBufferPointer) {
        self.source = source
        isWriting = false
    }

    init(writing capacity: Int) {
        source = UnsafeRawBufferPointer(start: nil, count: 0)
        isWriting = true
        written.reserveCapacity(capacity)
    }

    private var count: Int { isWriting ? written.count : source.count }

    /// Reads from the source, or back from what was written (libtiff rereads a directory to link the next one).
    fileprivate func read(into buffer: UnsafeMutableRawPointer?, count wanted: Int) -> Int {
        guard let buffer, wanted >= 0, position < count else { return 0 }
        let available = min(wanted, count - position)
        if isWriting {
            written.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: available) }
        } else {
            buffer.copyMemory(from: source.baseAddress! + position, byteCount: available)
        }
        position += available
        return available
    }

    fileprivate func write(from buffer: UnsafeRawPointer?, count length: Int) -> Int {
        guard isWriting, let buffer, length >= 0 else { return -1 }
        let end = position + length
        if end > written.count { written.append(contentsOf: repeatElement(0, count: end - written.count)) }
        written.withUnsafeMutableBytes { out in
            (out.baseAddress! + position).copyMemory(from: buffer, byteCount: length)
        }
        position = end
        return length
    }

    /// Moves to `offset` from the start (0), the position (1) or the end (2); nil for a negative or overflowing
    /// result, which libtiff treats as a failed seek.
    fileprivate func seek(_ offset: UInt64, whence: Int32) -> UInt64? {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = count
        default: base = 0
        }
        // libtiff passes negative relative offsets as two's-complement toff_t values.
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0 else { return nil }
        position = target
        return UInt64(target)
    }

    /// The procedures `TIFFClientOpenExt` takes, each recovering this stream from its client handle.
    static let readProc: TIFFReadWriteProc = { handle, buffer, size in
        Int64(stream(handle).read(into: buffer, count: Int(size)))
    }
    static let writeProc: TIFFReadWriteProc = { handle, buffer, size in
        Int64(stream(handle).write(from: buffer, count: Int(size)))
    }
    static let seekProc: TIFFSeekProc = { handle, offset, whence in
        stream(handle).seek(offset, whence: whence) ?? UInt64.max
    }
    static let closeProc: TIFFCloseProc = { _ in 0 }
    static let sizeProc: TIFFSizeProc = { handle in UInt64(stream(handle).count) }
    /// Reading: the whole source as the mapped file (libtiff never writes through it when reading).
    static let mapProc: TIFFMapFileProc = { handle, base, size in
        let stream = stream(handle)
        guard !stream.isWriting, let address = stream.source.baseAddress, let base, let size else { return 0 }
        base.pointee = UnsafeMutableRawPointer(mutating: address)
        size.pointee = UInt64(stream.source.count)
        return 1
    }
    static let unmapProc: TIFFUnmapFileProc = { _, _, _ in }

    private static func stream(_ handle: thandle_t?) -> TIFFMemoryStream {
        Unmanaged<TIFFMemoryStream>.fromOpaque(handle!).takeUnretainedValue()
    }
}
