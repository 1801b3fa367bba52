import Synchronization
import Testing
import WebImage

/// A synthetic animation: frame i is one pixel whose red/green bytes encode i; counts decodes.
final class CountingFrames: AnimatedFrameProvider {
    let frameCount: Int
    let loopCount: Int
    let duration: Double
    let pixelSize = PixelSize(width: 1, height: 1)
    let decodes = Mutex(0)

    init(count: Int, duration: Double = 0.12, loopCount: Int = 0) {
        frameCount = count
        self.duration = duration
        self.loopCount = loopCount
    }

    func frameDuration(at index: Int) -> Double { duration }

    func frame(at index: Int) throws -> PixelBuffer {
        decodes.withLock { $0 += 1 }
        return PixelBuffer(width: 1, height: 1, bytes: [UInt8(index % 256), UInt8(index / 256), 0, 255])
    }
}

/// Records what a player emits.
final class PlayerLog: Sendable {
    let frames = Mutex<[Int]>([])
    let loops = Mutex<[Int]>([])
    let finishes = Mutex(0)
    let bufferSizes = Mutex<[Int]>([])

    func attach(to player: AnimatedImagePlayer) {
        player.onFrame = { [self, weak player] index, pixels in
            #expect(Int(pixels.bytes[0]) + 256 * Int(pixels.bytes[1]) == index)
            frames.withLock { $0.append(index) }
            if let player { bufferSizes.withLock { $0.append(player.bufferedFrameCount) } }
        }
        player.onLoop = { [self] count in loops.withLock { $0.append(count) } }
        player.onFinish = { [self] in finishes.withLock { $0 += 1 } }
    }

    var emitted: [Int] { frames.withLock { $0 } }
}
