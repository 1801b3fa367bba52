#if canImport(Glibc)
import Glibc
#endif

/// Asks Linux to back a large, freshly allocated pixel buffer with 2 MB transparent huge pages.
///
/// A 12 MP RGBA buffer (48 MB) is above glibc's mmap threshold, so every decode gets brand-new pages and
/// the kernel takes ~12,000 page faults filling it; on a loaded machine those faults cost more than the
/// decode itself. With `MADV_HUGEPAGE` (the kernel's default THP mode is "madvise") the same buffer takes
/// ~24 faults. Only whole 2 MB blocks inside the buffer are advised; elsewhere this does nothing.
enum HugePageAdvice {
    /// Buffers smaller than this are left alone (they usually come from reused heap memory).
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
