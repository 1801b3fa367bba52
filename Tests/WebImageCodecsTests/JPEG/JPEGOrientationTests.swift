import Foundation
import Testing
import WebImage

/// EXIF orientation from APP1: read in both byte orders, applied on request, written on encode.
@Suite struct JPEGOrientationTests {
    /// 32×16: left 16×16 block red, right block blue (blocks align with 4:2:0 MCUs, so colours stay clean).
    private static func twoBlockJPEG() throws -> Data {
        let pixels = PixelBuffer(width: 32, height: 16) { out in
            for y in 0..<16 {
                for x in 0..<32 {
                    let i = (y * 32 + x) * 4
                    let colour: [UInt8] = x < 16 ? [220, 20, 20, 255] : [20, 20, 220, 255]
                    for c in 0..<4 { out[i + c] = colour[c] }
                }
            }
        }
        return try JPEGCoder().encode(Image(pixels: pixels, hasAlpha: false), as: .jpeg, options: .init(quality: 1))
    }

    @Test(arguments: 1...8, [false, true])
    func orientationIsReadAndApplied(value: Int, littleEndian: Bool) throws {
        let data = JPEGTestSupport.withEXIFOrientation(try Self.twoBlockJPEG(), value, littleEndian: littleEndian)
        let orientation = ImageOrientation(exifValue: value)
        let stored = try JPEGCoder().decode(data, options: .init())
        #expect(stored.orientation == orientation)
        #expect(stored.pixelSize == PixelSize(width: 32, height: 16))

        let upright = try JPEGCoder().decode(data, options: .init(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixels == stored.pixels.applying(orientation))
        #expect(upright.pixelSize == (value >= 5 ? PixelSize(width: 16, height: 32) : PixelSize(width: 32, height: 16)))
    }

    /// Orientation 6 (rotate 90° clockwise to view): the stored left (red) block ends up on top;
    /// orientation 3 (180°) puts the red block on the right.
    @Test func appliedOrientationMovesPixelsWhereViewersShowThem() throws {
        let base = try Self.twoBlockJPEG()
        let right = try JPEGCoder().decode(JPEGTestSupport.withEXIFOrientation(base, 6, littleEndian: false),
                                           options: .init(applyOrientation: true))
        #expect(right.pixels.rgba8(x: 8, y: 4)[0] > 200)   // red on top
        #expect(right.pixels.rgba8(x: 8, y: 28)[2] > 200)  // blue below
        let down = try JPEGCoder().decode(JPEGTestSupport.withEXIFOrientation(base, 3, littleEndian: true),
                                          options: .init(applyOrientation: true))
        #expect(down.pixels.rgba8(x: 28, y: 8)[0] > 200)  // red on the right
        #expect(down.pixels.rgba8(x: 4, y: 8)[2] > 200)   // blue on the left
    }

    @Test func malformedEXIFReadsAsUp() throws {
        let base = try Self.twoBlockJPEG()
        // Orientation 9 is out of range; a truncated or nonsense TIFF header must not trap.
        let outOfRange = JPEGTestSupport.withEXIFOrientation(base, 9, littleEndian: true)
        #expect(try JPEGCoder().decode(outOfRange, options: .init()).orientation == .up)
        for body in [Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42], Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0],
                     Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF]] {
            var data = base
            data.insert(contentsOf: [0xFF, 0xE1, 0, UInt8(body.count + 2)] + body, at: 2)
            #expect(try JPEGCoder().decode(data, options: .init()).orientation == .up)
        }
    }

    @Test func encodeWritesOrientation() throws {
        let pixels = JPEGTestSupport.smoothImage(width: 48, height: 32)
        let image = Image(pixels: pixels, orientation: .left, hasAlpha: false)
        let data = try JPEGCoder().encode(image, as: .jpeg, options: .init(quality: 0.8))
        let decoded = try JPEGCoder().decode(data, options: .init())
        #expect(decoded.orientation == .left)
        #expect(decoded.pixelSize == PixelSize(width: 48, height: 32))
    }
}
