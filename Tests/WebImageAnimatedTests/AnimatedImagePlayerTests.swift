import Foundation
import Synchronization
import Testing
import WebImage

@Suite struct AnimatedImagePlayerTests {
    private func makePlayer(count: Int = 101, duration: Double = 0.12, loopCount: Int = 0)
        -> (AnimatedImagePlayer, ManualAnimationClock, PlayerLog) {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(provider: CountingFrames(count: count, duration: duration, loopCount: loopCount),
                                         clock: clock)!
        let log = PlayerLog()
        log.attach(to: player)
        return (player, clock, log)
    }

    @Test(arguments: [
        (AnimationPlaybackMode.normal, Array(0...100) + Array(0...100) + [0]),
        (.reverse, Array((0...100).reversed()) + Array((0...100).reversed()) + [100]),
        (.bounce, Array(0...100) + Array((0...99).reversed()) + Array(1...100) + [99]),
        (.reversedBounce, Array((0...100).reversed()) + Array(1...100) + Array((0...99).reversed()) + [1]),
    ])
    func modesEmitEveryFrameInOrder(mode: AnimationPlaybackMode, expected: [Int]) {
        let (player, clock, log) = makePlayer()
        player.playbackMode = mode
        player.startPlaying()
        for _ in 1..<expected.count { clock.advance(by: 0.12) }
        #expect(log.emitted == expected)
    }

    @Test func aTickShorterThanTheFrameDoesNotAdvance() {
        let (player, clock, log) = makePlayer()
        player.startPlaying()
        clock.advance(by: 0.11)
        #expect(log.emitted == [0])
        clock.advance(by: 0.02)
        #expect(log.emitted == [0, 1])
        #expect(player.currentFrameIndex == 1)
    }

    @Test func rateScalesTimeAndZeroHolds() {
        let (player, clock, log) = makePlayer()
        player.playbackRate = 2
        player.startPlaying()
        clock.advance(by: 0.06)
        #expect(log.emitted == [0, 1])
        player.playbackRate = 0
        clock.advance(by: 5)
        #expect(log.emitted == [0, 1])
    }

    @Test func aHugeTickMovesExactlyOneFrame() {
        let (player, clock, log) = makePlayer()
        player.startPlaying()
        clock.advance(by: 1000)
        #expect(log.emitted == [0, 1])
        clock.advance(by: 1000)
        #expect(log.emitted == [0, 1, 2])
    }

    @Test func loopCountOneStopsAfterOneLoop() {
        let (player, clock, log) = makePlayer(loopCount: 1)
        #expect(player.totalLoopCount == 1)
        player.startPlaying()
        for _ in 0..<300 { clock.advance(by: 0.12) }
        #expect(log.emitted == Array(0...100))
        #expect(log.loops.withLock { $0 } == [1])
        #expect(log.finishes.withLock { $0 } == 1)
        #expect(!player.isPlaying)
        #expect(player.currentFrameIndex == 100 && player.currentLoopCount == 1)
    }

    @Test func loopHandlerCountsEveryLoopWhenPlayingForever() {
        let (player, clock, log) = makePlayer(count: 3)
        player.startPlaying()
        for _ in 0..<9 { clock.advance(by: 0.12) }
        #expect(log.emitted == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
        #expect(log.loops.withLock { $0 } == [1, 2, 3])
        #expect(player.isPlaying)
    }

    @Test func seekShowsEveryFrameAndPlaysOnFromThere() {
        let (player, clock, log) = makePlayer()
        for frame in 0...100 {
            player.seek(toFrame: frame, loopCount: 2)
            #expect(player.currentFrameIndex == frame)
            #expect(player.currentLoopCount == 2)
        }
        #expect(log.emitted == Array(0...100))
        player.seek(toFrame: 40)
        player.startPlaying()
        clock.advance(by: 0.12)
        #expect(log.emitted.suffix(3) == [40, 40, 41])
    }

    @Test func aOneFrameBufferHoldsAtMostOneFrame() async throws {
        let (player, clock, log) = makePlayer()
        player.maxBufferSize = player.provider.bytesPerFrame
        player.startPlaying()
        for _ in 0..<250 { clock.advance(by: 0.12) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.emitted.count == 251)
        #expect(log.bufferSizes.withLock { $0 }.allSatisfy { $0 <= 1 })
        #expect(player.bufferedFrameCount <= 1)
    }

    @Test func theBufferStaysWithinItsBudgetAndFillsAhead() async throws {
        let (player, clock, log) = makePlayer()
        player.maxBufferSize = player.provider.bytesPerFrame * 10
        player.startPlaying()
        for _ in 0..<30 { clock.advance(by: 0.12) }
        // The prefetch queue fills ahead in the background: wait for it (bounded) rather than a fixed time.
        let deadline = ContinuousClock.now + .seconds(10)
        while player.bufferedFrameCount < 10 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.bufferSizes.withLock { $0 }.allSatisfy { $0 <= 10 })
        #expect(player.bufferedFrameCount == 10)
        player.clearFrameBuffer()
        #expect(player.bufferedFrameCount == 0)
    }

    @Test func frameTransformerSeesEveryFrame() {
        let (player, clock, _) = makePlayer(count: 4)
        let seen = LockedIndices()
        player.frameTransformer = { pixels, index in
            seen.append(index)
            return pixels
        }
        player.maxBufferSize = player.provider.bytesPerFrame
        player.startPlaying()
        for _ in 0..<3 { clock.advance(by: 0.12) }
        #expect(seen.values == [0, 1, 2, 3])
    }

    @Test func stillImagesCannotBePlayed() {
        #expect(AnimatedImagePlayer(provider: CountingFrames(count: 1)) == nil)
        #expect(AnimatedImagePlayer(provider: CountingFrames(count: 0)) == nil)
    }

    @Test func pauseKeepsPositionAndStopRewinds() {
        let (player, clock, log) = makePlayer()
        player.startPlaying()
        clock.advance(by: 0.12)
        player.pausePlaying()
        clock.advance(by: 0.12)
        #expect(log.emitted == [0, 1] && player.currentFrameIndex == 1 && !player.isPlaying)
        player.stopPlaying()
        #expect(player.currentFrameIndex == 0)
        player.playbackMode = .reverse
        #expect(player.currentFrameIndex == 100)
    }

    @Test func realClockPlays() async throws {
        let player = AnimatedImagePlayer(provider: CountingFrames(count: 5, duration: 0.01))!
        let log = PlayerLog()
        log.attach(to: player)
        player.startPlaying()
        let deadline = ContinuousClock.now + .seconds(5)
        while log.emitted.count < 5 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        player.pausePlaying()
        #expect(Array(log.emitted.prefix(5)) == [0, 1, 2, 3, 4])
    }
}

final class LockedIndices: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ index: Int) { storage.withLock { $0.append(index) } }
    var values: [Int] { storage.withLock { $0 } }
}
