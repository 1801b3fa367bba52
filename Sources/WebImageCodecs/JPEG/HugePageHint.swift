#if canImport(Glibc)
import Glibc
#endif

/// Asks Linux to back a large, freshly allocated output buffer with 2 MB pages before a decoder fills it.
///
/// A new 48 MB raster otherwise takes ~12,000 page faults while the decoder writes it, which costs as much
/// as a third of a 12 MP decode; with transparent huge pages in `madvise` mode (Debian's default) the same
/// memory takes a few dozen. Only whole 2 MB blocks inside the buffer are marked; elsewhere a no-op.
enum HugePageHint {
    private static let hugePage = 2 << 20

    static func apply(to buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= 2 * hugePage, let base = buffer.baseAddress else { return }
        let address = Int(bitPattern: base)
        let start = (address + hugePage - 1) & ~(hugePage - 1)
        let end = (address + buffer.count) & ~(hugePage - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }
}
