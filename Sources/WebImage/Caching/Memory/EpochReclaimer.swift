import CSystemShim
import Foundation
import Synchronization

/// Lets readers walk a structure with no lock while writers unlink from it: an object a writer retires is
/// released only once no reader can still hold it (epoch-based reclamation).
///
/// A reader counts itself in a slot chosen by the CPU it runs on, under the parity of the current epoch. Two
/// threads on two cores write different cache lines, so readers on different cores never pass a line back and
/// forth as they would through a shared lock. A retired object is released at once when no reader is counted
/// anywhere (checked after the unlink, so a later reader can't reach it). Otherwise it waits in a limbo list
/// tagged with the epoch; the epoch advances only when no reader is left under the previous parity, and an
/// object retired in epoch `e` is released once the epoch reaches `e + 2`: every reader that could have seen it
/// has left by then. Readers arriving after an advance count under the new parity, so a steady stream of
/// readers can't hold a release back: it waits only for the reads that overlapped its retirement and those
/// begun in the same epoch. The last reader to leave releases what is waiting, so nothing lingers until the
/// next write.
///
/// Every access that orders a reader against a writer is sequentially consistent: a reader's increment comes
/// before its loads, a writer's unlink before its check of the counters, so either the writer sees the reader
/// or the reader sees the unlink.
final class EpochReclaimer: Sendable {
    /// A read in progress: which counter to give back when it ends.
    struct Ticket {
        fileprivate let counter: Int
    }

    private let slotMask: Int
    /// Readers in progress: two per slot (one per epoch parity), slot by CPU.
    private let counters: PaddedAtomicArray
    /// The current epoch, and whether the limbo holds anything: written only when a grace period starts or
    /// ends, so kept apart from the counters and the limbo lock.
    private let state = PaddedAtomicArray(count: 2)
    private var epoch: UnsafeMutablePointer<Atomic<UInt>> { state[0] }
    private var waiting: UnsafeMutablePointer<Atomic<UInt>> { state[1] }
    private let limbo = Mutex<[(epoch: UInt, object: any AnyObject & Sendable)]>([])

    init() {
        var slots = 1
        while slots < min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 64) { slots <<= 1 }
        slotMask = slots - 1
        counters = PaddedAtomicArray(count: 2 * slots)
    }

    /// Starts a read: until ``leave(_:)``, nothing retired after this call is released.
    @inline(__always)
    func enter() -> Ticket {
        let slot = 2 * (Self.currentCPU() & slotMask)
        var observed = epoch.pointee.load(ordering: .sequentiallyConsistent)
        while true {
            let counter = slot + Int(observed & 1)
            counters[counter].pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
            let now = epoch.pointee.load(ordering: .sequentiallyConsistent)
            if now == observed { return Ticket(counter: counter) }
            // The epoch moved between the two loads: count again under the new parity.
            counters[counter].pointee.wrappingSubtract(1, ordering: .releasing)
            observed = now
        }
    }

    /// Ends a read; releases what waits for it if this was the last reader in the way.
    @inline(__always)
    func leave(_ ticket: Ticket) {
        counters[ticket.counter].pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        if waiting.pointee.load(ordering: .sequentiallyConsistent) != 0 { reclaim() }
    }

    /// Releases `object` once no reader can hold it; call after unlinking it from everything readers walk.
    func retire(_ object: any AnyObject & Sendable) {
        if readers(parity: 0) == 0 && readers(parity: 1) == 0 { return }
        let released: [any AnyObject & Sendable] = limbo.withLock { limbo in
            limbo.append((epoch.pointee.load(ordering: .sequentiallyConsistent), object))
            return advance(&limbo)
        }
        _ = released
    }

    /// Releases whatever grace periods allow (rare: only while something waits).
    private func reclaim() {
        let released = limbo.withLock { advance(&$0) }
        _ = released
    }

    /// Advances the epoch as far as readers allow and hands back what is now safe to release (released by the
    /// caller outside the lock: an image's pixels can be large).
    private func advance(_ limbo: inout [(epoch: UInt, object: any AnyObject & Sendable)]) -> [any AnyObject & Sendable] {
        var released: [any AnyObject & Sendable] = []
        for _ in 0..<3 {
            let current = epoch.pointee.load(ordering: .sequentiallyConsistent)
            limbo.removeAll { entry in
                guard entry.epoch &+ 2 <= current else { return false }
                released.append(entry.object)
                return true
            }
            if limbo.isEmpty { break }
            // Raised before the check: a reader leaving after the check sees it and comes back to release.
            waiting.pointee.store(1, ordering: .sequentiallyConsistent)
            if readers(parity: (current &+ 1) & 1) != 0 { break }
            epoch.pointee.store(current &+ 1, ordering: .sequentiallyConsistent)
        }
        if limbo.isEmpty { waiting.pointee.store(0, ordering: .sequentiallyConsistent) }
        return released
    }

    /// Readers counted under `parity`, over all slots.
    private func readers(parity: UInt) -> UInt {
        var total: UInt = 0
        for slot in 0...slotMask {
            total &+= counters[2 * slot + Int(parity)].pointee.load(ordering: .sequentiallyConsistent)
        }
        return total
    }

    /// The CPU this thread runs on, else a hash of the thread (only a hint: a thread that migrates mid-read
    /// shares a line for a while, nothing more).
    @inline(__always)
    private static func currentCPU() -> Int {
        let cpu = Int(webimage_current_cpu())
        if cpu >= 0 { return cpu }
        #if canImport(Darwin)
        return Int(truncatingIfNeeded: UInt(bitPattern: pthread_self()) >> 12)
        #else
        return Int(truncatingIfNeeded: pthread_self() >> 12)
        #endif
    }
}
