import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// The one timer behind every download's total deadline: actions run once, in deadline order, never after
/// being cancelled, and the heap does not keep cancelled entries.
@Suite struct DeadlineSchedulerTests {
    @Test func actionsRunInDeadlineOrderAndCancelledOnesNever() async {
        let scheduler = DeadlineScheduler()
        let ran = Mutex<[Int]>([])
        var tokens: [DeadlineScheduler.Token] = []
        // Scheduled latest first, so every new one is the earliest and re-arms the timer; 250 ms apart, so the
        // cancels below come before index 1's deadline even on a loaded machine (20 ms once did not).
        for index in (0..<6).reversed() {
            tokens.append(scheduler.schedule(after: .milliseconds(250 * index)) { ran.withLock { $0.append(index) } })
        }
        scheduler.cancel(tokens[1])
        scheduler.cancel(tokens[4])
        #expect(await eventually { ran.withLock { $0.count } == 4 })
        try? await Task.sleep(for: .milliseconds(300))
        #expect(ran.withLock { $0 } == [0, 2, 3, 5])
    }

    @Test func cancellingMostOfManyKeepsTheOthersAndRunsThemOnce() async {
        let scheduler = DeadlineScheduler()
        let ran = Mutex<[Int: Int]>([:])
        var tokens: [DeadlineScheduler.Token] = []
        for index in 0..<1_000 {
            tokens.append(scheduler.schedule(after: .milliseconds(50)) { ran.withLock { $0[index, default: 0] += 1 } })
        }
        for (index, token) in tokens.enumerated() where !index.isMultiple(of: 100) { scheduler.cancel(token) }
        #expect(await eventually { ran.withLock { $0.count } == 10 })
        try? await Task.sleep(for: .milliseconds(200))
        #expect(ran.withLock { $0 } == Dictionary(uniqueKeysWithValues: stride(from: 0, to: 1_000, by: 100).map { ($0, 1) }))
    }

    @Test func aCancelledEarliestDeadlineStillLetsLaterOnesFire() async {
        let scheduler = DeadlineScheduler()
        let ran = Mutex(false)
        let early = scheduler.schedule(after: .milliseconds(10)) {}
        scheduler.cancel(early)
        _ = scheduler.schedule(after: .milliseconds(40)) { ran.withLock { $0 = true } }
        #expect(await eventually { ran.withLock { $0 } })
    }
}
