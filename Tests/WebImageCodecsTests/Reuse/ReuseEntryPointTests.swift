import Foundation
import Testing
import WebImage

/// The protocol's default for coders that cannot reuse, and `CodersManager` forwarding to the coder that can.
@Suite struct ReuseEntryPointTests {
    /// A coder implementing only `decode(_:options:)`: every decode is one red pixel.
    private final class PlainCoder: ImageCoding {
        func canDecode(_ data: Data) -> Bool { data.starts(with: [0x50]) }
        func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
            Image(pixels: PixelBuffer(width: 1, height: 1, bytes: [255, 0, 0, 255]), format: .undefined, hasAlpha: false)
        }
        func canEncode(to format: ImageFormat) -> Bool { false }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
            throw WebImageError.encodingFailed(format: format, reason: "decode only")
        }
    }

    @Test func defaultDecodesNormallyAndLeavesTheBufferAlone() throws {
        var buffer = PixelBuffer(width: 2, height: 1, bytes: [1, 2, 3, 4, 5, 6, 7, 8])
        let image = try PlainCoder().decode(Data([0x50]), reusing: &buffer, options: .init())
        #expect(image.pixels.bytes == [255, 0, 0, 255])
        #expect(buffer == PixelBuffer(width: 2, height: 1, bytes: [1, 2, 3, 4, 5, 6, 7, 8]))
    }

    @Test func managerReusesTheBufferThroughTheMatchingCoder() throws {
        let manager = CodersManager(coders: BuiltInCoders.makeAll() + [PlainCoder()])
        var buffer = PixelBuffer(width: 1, height: 1)
        let jpeg = try JPEGTestSupport.baselineJPEG(width: 160, height: 120)
        let first = try ReuseTestSupport.expectReuseMatches(manager, jpeg, buffer: &buffer)
        #expect(buffer.size == PixelSize(width: 160, height: 120))
        let second = try ReuseTestSupport.expectReuseMatches(manager, jpeg, buffer: &buffer)
        #expect(second == first)
        try ReuseTestSupport.expectReuseMatches(manager, Data([0x50]), buffer: &buffer)
        #expect(ReuseTestSupport.address(buffer) == first)
        #expect(ReuseTestSupport.reason { try manager.decode(Data([1, 2, 3]), reusing: &buffer, options: .init()) }
                == .unsupportedFormat(.undefined))
        #expect(ReuseTestSupport.reason { try manager.decode(Data(), reusing: &buffer, options: .init()) } == .empty)
    }
}
