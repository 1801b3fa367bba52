import Foundation
import Testing
import WebImageCore
@testable import WebImageCodecs

/// Seeded mutations of a valid animated GIF through every entry point: each ends in an image or a typed
/// error, never a crash (clipping, interlacing, palettes and truncation all get damaged inputs).
@Suite struct GIFFuzzTests {
    /// A small deterministic generator (64-bit LCG), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func base() throws -> Data {
        let palette: [GIFColor] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        var first = GIFWriterFrame(width: 8, height: 9, indices: (0..<72).map { UInt8($0 % 4) })
        first.isInterlaced = true
        var second = GIFWriterFrame(left: 2, top: 3, width: 5, height: 4, indices: (0..<20).map { UInt8($0 % 3) })
        second.colors = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
        second.transparentIndex = 1
        second.disposal = 3
        let third = GIFWriterFrame(left: 6, top: 7, width: 4, height: 4, indices: [UInt8](repeating: 2, count: 16),
                                   disposal: 2, delayCentiseconds: 1)
        return try GIFWriter.write(screen: PixelSize(width: 8, height: 9), globalColors: palette, loopCount: 2,
                                   frames: [first, second, third])
    }


    @Test(arguments: 0..<4)
    func mutatedFilesNeverCrash(seed: Int) throws {
        let original = try Self.base()
        var random = Generator(state: UInt64(seed) &+ 0x9E37_79B9)
        let options = ImageDecodeOptions(maxPixelCount: 50_000)
        for _ in 0..<100 {
            var data = original
            for _ in 0...random.next(4) { data[random.next(data.count)] = UInt8(random.next(256)) }
            if random.next(4) == 0 { data = data.prefix(random.next(data.count) + 1) }
            let coder = GIFCoder()
            #expect(endsInResultOrTypedError { _ = try coder.decode(data, options: options) })
            #expect(endsInResultOrTypedError {
                let decoder = try coder.makeAnimatedDecoder(data, options: options)
                for index in [decoder.frameCount - 1, 0] where index >= 0 { _ = try decoder.frame(at: index) }
            })
            #expect(endsInResultOrTypedError {
                let progressive = coder.makeProgressiveDecoder(options: options)
                for length in stride(from: 10, to: data.count, by: 17) { _ = try progressive.decode(data.prefix(length), isFinished: false) }
                _ = try progressive.decode(data, isFinished: true)
            })
        }
    }

    @Test func baseFileDecodesAsBuilt() throws {
        let image = try GIFCoder().decode(try Self.base(), options: .init())
        #expect(image.frameCount == 3)
        #expect(image.loopCount == 2)
        #expect(image.frameDurations == [0.1, 0.1, 0.1])
        // Frame 2 (transparent index 1, local colours) drew (2,3) from local entry 0 and left (3,3) alone.
        #expect(image.frames[1].pixels.rgba8(x: 2, y: 3) == [1, 2, 3, 255])
        #expect(image.frames[1].pixels.rgba8(x: 3, y: 3) == image.frames[0].pixels.rgba8(x: 3, y: 3))
        // Frame 3 comes after frame 2 was undone: back to frame 1 except its own clipped corner.
        #expect(image.frames[2].pixels.rgba8(x: 2, y: 3) == image.frames[0].pixels.rgba8(x: 2, y: 3))
        #expect(image.frames[2].pixels.rgba8(x: 7, y: 8) == [0, 0, 255, 255])
    }
}
