#if canImport(Glibc)
import Glibc
#endif

/// Asks Linux to back a large, freshly allocated pixel buffer with 2 MB transparent huge pages.
///
/// A 12 MP RGBA raster (48 MB) is above glibc's mmap threshold, so every decode gets brand-new pages and
/// the kernel takes ~12,000 page faults while the decoder fills them — on a loaded machine more than the
/// decode itself. With `MADV_HUGEPAGE` (Debian's THP mode is "madvise") the same buffer takes a few dozen.
/// Only whole 2 MB blocks inside the buffer are advised; smaller buffers and other systems are left alone.
enum HugePages {
    /// Buffers below this usually come from reused heap memory and gain nothing.
    static let minimumBytes = 8 << 20

    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
        guard buffer.count >= minimumBytes, let base = buffer.baseAddress else { return }
        let hugePage = UInt(2 << 20)
        let start = (UInt(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~(hugePage - 1)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
