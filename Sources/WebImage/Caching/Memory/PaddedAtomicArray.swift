import Synchronization

/// A fixed array of atomic words, each alone on its own two cache lines.
///
/// For state that different threads write at once (per-CPU reader counters) or that many threads read while
/// something nearby is written: two words never share a line, nor a pair of lines the hardware prefetches
/// together, so a write to one never costs another core a miss on its neighbour.
final class PaddedAtomicArray: @unchecked Sendable {  // the words are a manually allocated array of atomics
    /// Words per element: 128 bytes.
    private static let stride = 16
    let count: Int
    private let words: UnsafeMutablePointer<Atomic<UInt>>

    init(count: Int) {
        self.count = count
        words = .allocate(capacity: count * Self.stride)
        for index in 0..<(count * Self.stride) { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: count * Self.stride)
        words.deallocate()
    }

    /// The atomic word at `index`.
    @inline(__always)
    subscript(index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        precondition(index >= 0 && index < count, "index out of range")
        return words + index * Self.stride
    }
}
