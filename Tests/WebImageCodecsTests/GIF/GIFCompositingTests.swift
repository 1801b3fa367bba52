import Foundation
import Testing
import WebImageCore
@testable import WebImageCodecs

/// Hand-built GIFs (written with giflib through ``GIFWriter``) checked pixel by pixel: disposal methods,
/// transparency, interlacing, colour tables, clipping, delays and loop counts.
@Suite struct GIFCompositingTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let white: [UInt8] = [255, 255, 255, 255], yellow: [UInt8] = [255, 255, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
    /// Global table: 0 red, 1 green, 2 blue, 3 white.
    static let palette: [GIFColor] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    static let screen = PixelSize(width: 4, height: 4)

    /// A frame filled with one palette index.
    static func solid(_ index: UInt8, x: Int = 0, y: Int = 0, width: Int = 4, height: Int = 4, disposal: Int = 0,
                      delay: Int = 10, transparent: Int? = nil) -> GIFWriterFrame {
        GIFWriterFrame(left: x, top: y, width: width, height: height,
                       indices: [UInt8](repeating: index, count: width * height),
                       transparentIndex: transparent, disposal: disposal, delayCentiseconds: delay)
    }

    static func decode(_ frames: [GIFWriterFrame], screen: PixelSize = screen, loop: Int? = 0) throws -> Image {
        let data = try GIFWriter.write(screen: screen, globalColors: palette, loopCount: loop, frames: frames)
        return try GIFCoder().decode(data, options: .init())
    }

    /// The expected 4×4 canvas: `base` everywhere, with `overrides` at (x, y).
    static func canvas(_ base: [UInt8], _ overrides: [(Int, Int, [UInt8])] = []) -> [[UInt8]] {
        var pixels = Array(repeating: base, count: 16)
        for (x, y, color) in overrides { pixels[y * 4 + x] = color }
        return pixels
    }

    @Test func disposalNoneKeepsPreviousFrame() throws {
        let image = try Self.decode([Self.solid(0), Self.solid(1, x: 1, y: 1, width: 2, height: 2)])
        #expect(GIFTestSupport.quads(image.frames[0].pixels) == Self.canvas(Self.red))
        #expect(GIFTestSupport.quads(image.frames[1].pixels)
            == Self.canvas(Self.red, [(1, 1, Self.green), (2, 1, Self.green), (1, 2, Self.green), (2, 2, Self.green)]))
        #expect(!image.hasAlpha)
    }

    @Test func disposalBackgroundClearsTheRectToTransparent() throws {
        let image = try Self.decode([Self.solid(0, disposal: 1), Self.solid(1, x: 1, y: 1, width: 2, height: 2, disposal: 2),
                                     Self.solid(2, width: 1, height: 1)])
        #expect(GIFTestSupport.quads(image.frames[2].pixels)
            == Self.canvas(Self.red, [(0, 0, Self.blue), (1, 1, Self.clear), (2, 1, Self.clear), (1, 2, Self.clear), (2, 2, Self.clear)]))
        #expect(image.hasAlpha)
    }

    @Test func disposalPreviousRestoresTheCanvas() throws {
        let image = try Self.decode([Self.solid(0), Self.solid(1, x: 1, y: 1, width: 2, height: 2, disposal: 3),
                                     Self.solid(2, width: 1, height: 1)])
        #expect(GIFTestSupport.quads(image.frames[1].pixels)[5] == Self.green)
        #expect(GIFTestSupport.quads(image.frames[2].pixels) == Self.canvas(Self.red, [(0, 0, Self.blue)]))
    }

    @Test func disposalPreviousOnFirstFrameRestoresEmptyScreen() throws {
        let image = try Self.decode([Self.solid(0, disposal: 3), Self.solid(2, width: 1, height: 1)])
        #expect(GIFTestSupport.quads(image.frames[1].pixels) == Self.canvas(Self.clear, [(0, 0, Self.blue)]))
    }

    @Test func transparentIndexLeavesCanvasUntouched() throws {
        var holes = Self.solid(1, transparent: 3)
        holes.indices = (0..<16).map { $0 % 2 == 0 ? 3 : 1 }
        let image = try Self.decode([Self.solid(0), holes])
        let expected = (0..<16).map { $0 % 2 == 0 ? Self.red : Self.green }
        #expect(GIFTestSupport.quads(image.frames[1].pixels) == expected)
        #expect(image.hasAlpha)
    }

    @Test func transparentFirstFrameShowsClearPixels() throws {
        var frame = Self.solid(0, transparent: 0)
        frame.indices[5] = 2
        let image = try Self.decode([frame], loop: nil)
        #expect(GIFTestSupport.quads(image.pixels) == Self.canvas(Self.clear, [(1, 1, Self.blue)]))
        #expect(image.hasAlpha)
    }

    @Test func interlacedRowsAreDeinterlaced() throws {
        let size = PixelSize(width: 3, height: 11)
        var frame = Self.solid(0, width: 3, height: 11)
        frame.isInterlaced = true
        frame.indices = (0..<33).map { UInt8($0 / 3 % 4) }
        let image = try Self.decode([frame], screen: size, loop: nil)
        let colors = [Self.red, Self.green, Self.blue, Self.white]
        #expect(GIFTestSupport.quads(image.pixels) == (0..<33).map { colors[$0 / 3 % 4] })
    }

    @Test func localColorTableOverridesGlobal() throws {
        var local = Self.solid(0, width: 2, height: 1)
        local.colors = [(255, 255, 0), (0, 0, 0)]
        let image = try Self.decode([Self.solid(3), local])
        #expect(GIFTestSupport.quads(image.frames[1].pixels) == Self.canvas(Self.white, [(0, 0, Self.yellow), (1, 0, Self.yellow)]))
    }

    @Test func framesOutsideTheScreenAreClipped() throws {
        let image = try Self.decode([Self.solid(0), Self.solid(1, x: 2, y: 3, width: 5, height: 5),
                                     Self.solid(2, x: 9, y: 9, width: 2, height: 2)])
        #expect(GIFTestSupport.quads(image.frames[1].pixels) == Self.canvas(Self.red, [(2, 3, Self.green), (3, 3, Self.green)]))
        #expect(image.frames[2].pixels == image.frames[1].pixels)
    }

    @Test func firstFrameSmallerThanScreenLeavesTransparency() throws {
        let image = try Self.decode([Self.solid(0, x: 1, y: 1, width: 2, height: 2)], loop: nil)
        #expect(image.hasAlpha)
        #expect(image.pixels.rgba8(x: 0, y: 0) == Self.clear)
        #expect(image.pixels.rgba8(x: 2, y: 2) == Self.red)
    }

    @Test func delaysFollowSDWebImageRule() throws {
        let image = try Self.decode([0, 1, 2, 7, 150].map { Self.solid(0, delay: $0) })
        #expect(image.frameDurations == [0.1, 0.1, 0.02, 0.07, 1.5])
    }

    @Test(arguments: [(nil, 1), (0, 0), (3, 3), (65535, 65535)] as [(Int?, Int)])
    func loopCountFromNetscapeBlock(written: Int?, expected: Int) throws {
        let image = try Self.decode([Self.solid(0), Self.solid(1)], loop: written)
        #expect(image.loopCount == expected)
        let data = try GIFWriter.write(screen: Self.screen, globalColors: Self.palette, loopCount: written,
                                       frames: [Self.solid(0), Self.solid(1)])
        #expect(try GIFCoder().makeAnimatedDecoder(data, options: .init()).loopCount == expected)
    }

    @Test func overLimitScreenIsRejectedBeforeDecoding() throws {
        let data = try GIFWriter.write(screen: PixelSize(width: 300, height: 300), globalColors: Self.palette,
                                       frames: [Self.solid(0)])
        #expect(GIFTestSupport.badDataReason { _ = try GIFCoder().decode(data, options: .init(maxPixelCount: 80_000)) }
            == .tooManyPixels(width: 300, height: 300, limit: 80_000))
    }

    @Test func truncatedAnimationKeepsCompleteFrames() throws {
        let data = try GIFWriter.write(screen: Self.screen, globalColors: Self.palette, loopCount: 0,
                                       frames: [Self.solid(0), Self.solid(1), Self.solid(2)])
        let cut = data.prefix(data.count - 6)
        let image = try GIFCoder().decode(cut, options: .init())
        #expect(image.frameCount == 2)
        #expect(GIFTestSupport.quads(image.frames[1].pixels) == Self.canvas(Self.green))
        #expect(GIFTestSupport.badDataReason { _ = try GIFCoder().decode(data.prefix(40), options: .init()) } == .truncated)
    }
}
