import Foundation
import Testing
import WebImage

/// `ImageFormat.holdsAnimation` says what the built-in coders do: a two-frame image written in a format that
/// holds animations reads back as two frames, in any other format as one. TIFF is left out: it writes each frame
/// as a page, and pages read back as frames of a document, not of an animation.
@Suite struct FormatAnimationCapabilityTests {
    static let animation: Image = {
        let frames = (0..<2).map { index in
            ImageFrame(pixels: PixelBuffer(width: 16, height: 16, format: .rgba8) { out in
                for i in out.indices { out[i] = i % 4 == 3 ? 255 : UInt8(index * 200) }
            }, duration: 0.1)
        }
        return Image(frames: frames, loopCount: 0)
    }()

    @Test func theFormatsThatHoldAnimations() {
        #expect(ImageFormat.allCases.filter(\.holdsAnimation) == [.png, .gif, .webp, .avif, .jxl])
    }

    @Test(arguments: ImageFormat.allCases.filter { CodersManager.shared.canEncode(to: $0) && $0 != .tiff })
    func writtenAndReadBack(format: ImageFormat) throws {
        let data = try CodersManager.shared.encode(Self.animation, as: format, options: ImageEncodeOptions())
        let decoded = try CodersManager.shared.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frameCount == (format.holdsAnimation ? 2 : 1), "\(format)")
    }
}
