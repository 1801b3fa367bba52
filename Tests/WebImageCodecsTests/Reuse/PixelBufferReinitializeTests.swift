import Testing
import WebImage

/// `PixelBuffer.reinitialize`: reuses storage it owns alone and that fits, never writes through shared storage,
/// and stays a valid raster when the filler throws.
@Suite struct PixelBufferReinitializeTests {
    private struct Failure: Error {}

    private static func fill(_ value: UInt8) -> (UnsafeMutableRawBufferPointer) -> Void {
        { $0.initializeMemory(as: UInt8.self, repeating: value) }
    }

    @Test func sameSizeReusesTheStorage() {
        var buffer = PixelBuffer(width: 64, height: 32)
        let address = ReuseTestSupport.address(buffer)
        buffer.reinitialize(width: 32, height: 64, initializingWith: Self.fill(7))
        #expect(ReuseTestSupport.address(buffer) == address)
        #expect(buffer.size == PixelSize(width: 32, height: 64))
        #expect(buffer.bytes == [UInt8](repeating: 7, count: 32 * 64 * 4))
    }

    @Test func smallerThenLargerWithinCapacityReusesTheStorage() {
        var buffer = PixelBuffer(width: 100, height: 100)
        let address = ReuseTestSupport.address(buffer)
        buffer.reinitialize(width: 10, height: 10, format: .rgba16, initializingWith: Self.fill(3))
        #expect(ReuseTestSupport.address(buffer) == address)
        #expect(buffer.format == .rgba16)
        #expect(buffer.bytes == [UInt8](repeating: 3, count: 10 * 10 * 8))
        buffer.reinitialize(width: 100, height: 100, initializingWith: Self.fill(9))
        #expect(ReuseTestSupport.address(buffer) == address)
        #expect(buffer.bytes == [UInt8](repeating: 9, count: 100 * 100 * 4))
    }

    @Test func largerThanCapacityGetsNewStorage() {
        var buffer = PixelBuffer(width: 4, height: 4)
        buffer.reinitialize(width: 300, height: 200, initializingWith: Self.fill(5))
        #expect(buffer.size == PixelSize(width: 300, height: 200))
        #expect(buffer.bytes == [UInt8](repeating: 5, count: 300 * 200 * 4))
    }

    /// A copy held elsewhere (an image from the previous decode) keeps its pixels.
    @Test func sharedStorageIsNotWrittenThrough() {
        var buffer = PixelBuffer(width: 8, height: 8)
        buffer.reinitialize(width: 8, height: 8, initializingWith: Self.fill(1))
        let kept = buffer
        buffer.reinitialize(width: 8, height: 8, initializingWith: Self.fill(2))
        #expect(kept.bytes == [UInt8](repeating: 1, count: 256))
        #expect(buffer.bytes == [UInt8](repeating: 2, count: 256))
        #expect(ReuseTestSupport.address(kept) != ReuseTestSupport.address(buffer))
    }

    @Test func throwingFillerLeavesAUsableBuffer() {
        var buffer = PixelBuffer(width: 20, height: 20)
        let address = ReuseTestSupport.address(buffer)
        #expect(throws: Failure.self) {
            try buffer.reinitialize(width: 10, height: 5) { _ in throw Failure() }
        }
        #expect(buffer.size == PixelSize(width: 10, height: 5))
        #expect(buffer.bytes.count == 10 * 5 * 4)
        buffer.reinitialize(width: 20, height: 20, initializingWith: Self.fill(4))
        #expect(ReuseTestSupport.address(buffer) == address)
        #expect(buffer.bytes == [UInt8](repeating: 4, count: 20 * 20 * 4))
    }
}
