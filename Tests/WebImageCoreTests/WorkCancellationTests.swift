import Foundation
import Synchronization
import Testing
@testable import WebImageCore

/// The cancellation token, its scope, and the resampler stopping under it.
@Suite struct WorkCancellationTests {
    /// A token with a deadline stops by itself at the first check past it, with nobody calling cancel(); a
    /// deadline moved later is read at each check.
    @Test func aDeadlineStopsTheWorkWithoutACancel() {
        #expect(WorkCancellation(deadline: { .now - .milliseconds(1) }).shouldStop())
        let deadline = Mutex(ContinuousClock.now + .seconds(60))
        let token = WorkCancellation(deadline: { deadline.withLock { $0 } })
        #expect(!token.shouldStop() && !token.isCancelled)
        deadline.withLock { $0 = .now - .milliseconds(1) }
        #expect(token.shouldStop() && token.isCancelled)
        deadline.withLock { $0 = .now + .seconds(60) }
        #expect(token.shouldStop(), "once stopped, it stays stopped")
    }

    @Test func aCancelledTokenStopsAndCountsItsChecks() {
        let token = WorkCancellation()
        #expect(!token.shouldStop())
        #expect(!token.isCancelled)
        token.cancel()
        #expect(token.isCancelled)
        #expect(token.shouldStop())
        #expect(token.checkCount == 2)
        #expect(Self.isCancelled { try token.check() })
    }

    @Test func aCheckLimitCancelsAtThatCheck() {
        let token = WorkCancellation(checkLimit: 3)
        #expect(!token.shouldStop())
        #expect(!token.shouldStop())
        #expect(!token.isCancelled)
        #expect(token.shouldStop())
        #expect(token.isCancelled)
        #expect(token.checkCount == 3)
    }

    @Test func theScopeBindsTheTokenToTheThreadAndDropsWhatACancelledBodyMade() throws {
        #expect(WorkCancellation.current == nil)
        let token = WorkCancellation()
        let seen = try token.run { WorkCancellation.current }
        #expect(seen === token)
        #expect(WorkCancellation.current == nil)
        #expect(Self.isCancelled {
            _ = try token.run { () -> Int in
                token.cancel()
                return 1
            }
        })
        #expect(Self.isCancelled { _ = try token.run { try WorkCancellation.checking { 1 } } })
    }

    @Test func checkingRunsTheBodyOutsideAnyScope() throws {
        #expect(try WorkCancellation.checking { 7 } == 7)
    }

    /// A resample polls once per band of rows; cancelled at the third check it stops there, where a whole one
    /// makes a check per band.
    @Test func theResamplerStopsWithinABandOfRows() throws {
        let source = PixelBuffer(width: 64, height: 1000)
        let whole = WorkCancellation()
        _ = try whole.run { Resampler.resample(source, to: PixelSize(width: 8, height: 100)) }
        #expect(whole.checkCount == (1000 + Resampler.bandRows - 1) / Resampler.bandRows)
        let stopped = WorkCancellation(checkLimit: 3)
        #expect(Self.isCancelled { _ = try stopped.run { Resampler.resample(source, to: PixelSize(width: 8, height: 100)) } })
        #expect(stopped.checkCount == 3)
    }

    static func isCancelled(_ body: () throws -> Void) -> Bool {
        do {
            try body()
        } catch WebImageError.cancelled {
            return true
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return false
    }
}
