import TestSupport
import Testing
@testable import WebImage

@Suite("Epoch reclaimer (memory cache's lock-free reads)")
struct EpochReclaimerTests {
    private final class Tracked: Sendable {}

    private struct WeakReference: Sendable {
        weak var object: Tracked?
    }

    @Test("with no read in progress a retired object is released at once")
    func releasedAtOnce() {
        let reclaimer = EpochReclaimer()
        weak var released: Tracked?
        do {
            let object = Tracked()
            released = object
            reclaimer.retire(object)
        }
        #expect(released == nil)
    }

    @Test("an object retired during a read lives until that read ends, even while a later read goes on")
    func heldByEarlierReadOnly() {
        let reclaimer = EpochReclaimer()
        weak var released: Tracked?
        let first = reclaimer.enter()
        do {
            let object = Tracked()
            released = object
            reclaimer.retire(object)
        }
        #expect(released != nil)
        let later = reclaimer.enter()
        #expect(released != nil)
        reclaimer.leave(first)
        #expect(released == nil)
        reclaimer.leave(later)
    }

    @Test("a steady stream of overlapping reads can't hold releases back")
    func overlappingReadsMakeProgress() {
        let reclaimer = EpochReclaimer()
        var open = reclaimer.enter()
        var retired: [WeakReference] = []
        for round in 0..<100 {
            do {
                let object = Tracked()
                retired.append(WeakReference(object: object))
                reclaimer.retire(object)
            }
            // A new read starts before the previous one ends, so some read is always in progress.
            let next = reclaimer.enter()
            reclaimer.leave(open)
            open = next
            // A release waits for the reads that overlapped its retirement and those begun in the same epoch,
            // so everything retired in earlier rounds is gone, while some read has been open all along.
            #expect(retired[..<round].allSatisfy { $0.object == nil })
        }
        reclaimer.leave(open)
    }

    @Test("objects retired by one thread while another reads all the time are all released")
    func concurrentReaderAndRetirer() async throws {
        let reclaimer = EpochReclaimer()
        let started = Rendezvous(), stop = Rendezvous()
        let reader = Task.detached {
            try await onDedicatedThread {
                var reads = 0
                while stop.value == 0 {
                    let ticket = reclaimer.enter()
                    reads += 1
                    if reads == 1 { started.arrive() }
                    reclaimer.leave(ticket)
                }
                return reads
            }
        }
        let weakReferences = try await onDedicatedThread {
            started.wait(for: 1)
            return (0..<20_000).map { _ in
                let object = Tracked()
                reclaimer.retire(object)
                return WeakReference(object: object)
            }
        }
        stop.arrive()
        #expect(try await reader.value > 0)
        #expect(weakReferences.allSatisfy { $0.object == nil })
    }
}
