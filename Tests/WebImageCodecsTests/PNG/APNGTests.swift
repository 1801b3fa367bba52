import Foundation
import Testing
import WebImage

/// Animated PNG: frame controls, disposal, blending, lazy access and encoding.
@Suite struct APNGTests {
    static let red: [UInt8] = [255, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
    static let canvas = PixelSize(width: 8, height: 8)

    /// Four frames on an 8×8 canvas exercising every dispose and blend operation.
    static let frames: [PNGTestBytes.Frame] = {
        // 0: red with one transparent pixel (so every frame is RGBA); dispose none, blend source, 1/10 s.
        var base = PNGTestBytes.solid(8, 8, red).bytes
        base.replaceSubrange(28..<32, with: clear) // (7, 0)
        // 1: 4×4 half-transparent blue at (2, 2), its first pixel fully transparent; over, dispose previous.
        var blue = PNGTestBytes.solid(4, 4, [0, 0, 255, 128]).bytes
        blue.replaceSubrange(0..<4, with: clear)
        // 2: 2×2 green at (0, 0), one pixel with alpha 200; source, dispose background, 5/0 → 5/100 s.
        var green = PNGTestBytes.solid(2, 2, [0, 255, 0, 255]).bytes
        green.replaceSubrange(12..<16, with: [0, 255, 0, 200])
        return [
            .init(pixels: PixelBuffer(width: 8, height: 8, bytes: base), delay: (1, 10)),
            .init(pixels: PixelBuffer(width: 4, height: 4, bytes: blue), x: 2, y: 2, delay: (7, 100), dispose: 2, blend: 1),
            .init(pixels: PixelBuffer(width: 2, height: 2, bytes: green), delay: (5, 0), dispose: 1, blend: 0),
            // 3: one transparent pixel at (7, 7) blended over: changes nothing; 3/100 s.
            .init(pixels: PNGTestBytes.solid(1, 1, clear), x: 7, y: 7, delay: (3, 100), blend: 1),
        ]
    }()

    static func animation(plays: UInt32 = 2) throws -> Data {
        try PNGTestBytes.apng(canvas: canvas, frames: frames, plays: plays)
    }

    /// Checks the composited frames of the animation above.
    static func expectComposited(_ frames: [PixelBuffer]) {
        #expect(frames.count == 4)
        guard frames.count == 4 else { return }
        #expect(frames[0].rgba8(x: 0, y: 0) == red && frames[0].rgba8(x: 7, y: 0) == clear)
        // Frame 1: blue at 128/255 over red; its transparent corner leaves red.
        #expect(frames[1].rgba8(x: 2, y: 2) == red)
        #expect(frames[1].rgba8(x: 3, y: 3) == [127, 0, 128, 255])
        #expect(frames[1].rgba8(x: 5, y: 5) == [127, 0, 128, 255])
        #expect(frames[1].rgba8(x: 6, y: 6) == red)
        // Frame 2: frame 1's region restored (dispose previous), green replaces the corner (source).
        #expect(frames[2].rgba8(x: 3, y: 3) == red)
        #expect(frames[2].rgba8(x: 0, y: 0) == [0, 255, 0, 255])
        #expect(frames[2].rgba8(x: 1, y: 1) == [0, 255, 0, 200])
        #expect(frames[2].rgba8(x: 2, y: 2) == red)
        // Frame 3: frame 2's region cleared (dispose background); the transparent pixel blends to nothing.
        #expect(frames[3].rgba8(x: 0, y: 0) == clear && frames[3].rgba8(x: 1, y: 1) == clear)
        #expect(frames[3].rgba8(x: 2, y: 0) == red && frames[3].rgba8(x: 7, y: 7) == red)
        #expect(frames[3].rgba8(x: 7, y: 0) == clear)
    }

    @Test func decodesFramesDurationsAndLoopCount() throws {
        let image = try PNGCoder().decode(Self.animation(), options: .init())
        #expect(image.frameCount == 4 && image.loopCount == 2 && image.format == .png && image.hasAlpha)
        #expect(image.frameDurations == [0.1, 0.07, 0.05, 0.03])
        #expect(image.pixelSize == Self.canvas)
        Self.expectComposited(image.frames.map(\.pixels))
    }

    @Test func decodesPillowAnimationLikePillow() throws {
        // 64×48, 5 frames made with Pillow (sub-canvas frames, every dispose, both blends). The checksums are
        // FNV-1a of reference frames composited per the APNG spec with Pillow's decoder and alpha_composite;
        // Pillow 9.4's own APNG reader blends "over" with a paste mask, which gets alpha wrong, so its frames
        // match only where blend is source (frames 0 and 3).
        let data = try Data(contentsOf: TestPaths.fixture("png", "pillow-animated.png"))
        let image = try PNGCoder().decode(data, options: .init())
        #expect(image.frameCount == 5 && image.loopCount == 2)
        #expect(image.frameDurations == [0.1, 0.07, 0.05, 0.2, 0.03])
        let expected: [UInt64] = [0x5A8E_644F_3235_BE06, 0xE59E_E175_B944_4A41, 0x7634_F20C_751D_0DE7,
                                  0x0B62_DC35_4658_951E, 0xF26E_B8F8_A962_8E54]
        #expect(image.frames.map { PNGTestBytes.fnv1a($0.pixels.bytes) } == expected)
    }

    @Test func sixteenBitAnimationKeepsSixteenBits() throws {
        // Two frames, both PngSuite's 16-bit RGBA basn6a16 (IDAT, then the same data as fdAT).
        let still = try Data(contentsOf: PNGSuiteTests.folder.appendingPathComponent("png/basn6a16.png"))
        let chunks = PNGTestBytes.chunks([UInt8](still))
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let control = { (sequence: UInt32) in
            PNGTestBytes.be32(sequence) + PNGTestBytes.be32(32) + PNGTestBytes.be32(32) + PNGTestBytes.be32(0)
                + PNGTestBytes.be32(0) + PNGTestBytes.be16(1) + PNGTestBytes.be16(4) + [0, 0]
        }
        let apng = PNGTestBytes.stream([
            chunks[0], .init(type: "acTL", data: PNGTestBytes.be32(2) + PNGTestBytes.be32(0)),
            .init(type: "fcTL", data: control(0)), .init(type: "IDAT", data: data),
            .init(type: "fcTL", data: control(1)), .init(type: "fdAT", data: PNGTestBytes.be32(2) + data),
            .init(type: "IEND", data: []),
        ])
        let image = try PNGCoder().decode(Data(apng), options: .init())
        let reference = try PNGCoder().decode(still, options: .init())
        #expect(image.frameCount == 2 && image.pixelFormat == .rgba16 && image.frameDurations == [0.25, 0.25])
        #expect(image.frames.allSatisfy { $0.pixels == reference.pixels })
    }

    @Test func firstFrameOnly() throws {
        let image = try PNGCoder().decode(Self.animation(), options: .init(firstFrameOnly: true))
        #expect(image.frameCount == 1)
        #expect(image.pixels.rgba8(x: 0, y: 0) == Self.red)
    }

    @Test func lazyDecoderMatchesFullDecodeInAnyOrder() throws {
        let data = try Self.animation(plays: 0)
        let decoder = try PNGCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.frameCount == 4 && decoder.loopCount == 0 && decoder.pixelSize == Self.canvas)
        #expect(decoder.frameDuration(at: 1) == 0.07)
        let full = try PNGCoder().decode(data, options: .init()).frames.map(\.pixels)
        for index in [3, 1, 1, 2, 0, 3] {
            #expect(try decoder.frame(at: index) == full[index], "frame \(index)")
        }
        #expect(PNGTestBytes.badDataReason { _ = try decoder.frame(at: 4) } == .frameOutOfRange(index: 4, count: 4))
    }

    @Test func lazyDecoderJumpsBetweenFullCanvasFrames() throws {
        // Re-encoded frames each paint the whole canvas, so any frame can be decoded on its own.
        let source = try PNGCoder().decode(Self.animation(), options: .init())
        let data = try PNGCoder().encode(source, as: .png, options: .init())
        let decoder = try PNGCoder().makeAnimatedDecoder(data, options: .init())
        for index in [2, 0, 3, 1, 3] {
            #expect(try decoder.frame(at: index) == source.frames[index].pixels, "frame \(index)")
        }
    }

    @Test func lazyDecoderOfAStillPNGHasOneFrame() throws {
        let still = try PNGCoder().encode(Image(pixels: PNGTestBytes.solid(3, 2, Self.red), hasAlpha: false), as: .png,
                                          options: .init())
        let decoder = try PNGCoder().makeAnimatedDecoder(still, options: .init())
        #expect(decoder.frameCount == 1 && decoder.pixelSize == PixelSize(width: 3, height: 2) && !decoder.hasAlpha)
        #expect(try decoder.frame(at: 0) == PNGTestBytes.solid(3, 2, Self.red))
        #expect(PNGTestBytes.badDataReason { _ = try decoder.frame(at: 1) } == .frameOutOfRange(index: 1, count: 1))
    }

    @Test func lazyDecoderAppliesThumbnailSize() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 4, height: 4))
        let decoder = try PNGCoder().makeAnimatedDecoder(Self.animation(), options: options)
        let full = try PNGCoder().decode(Self.animation(), options: options)
        #expect(decoder.pixelSize == PixelSize(width: 4, height: 4) && full.pixelSize == decoder.pixelSize)
        #expect(try decoder.frame(at: 2) == full.frames[2].pixels)
    }

    @Test func lazyDecoderIsSafeAcrossThreads() async throws {
        let data = try Self.animation()
        let decoder = try PNGCoder().makeAnimatedDecoder(data, options: .init())
        let full = try PNGCoder().decode(data, options: .init()).frames.map(\.pixels)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask { try (0..<12).allSatisfy { try decoder.frame(at: ($0 + task) % 4) == full[($0 + task) % 4] } }
            }
            for try await matched in group { #expect(matched) }
        }
    }

    @Test func defaultImageIsNotAFrame() throws {
        let frames = [PNGTestBytes.Frame(pixels: PNGTestBytes.solid(4, 4, [0, 0, 255, 100]), delay: (1, 10)),
                      PNGTestBytes.Frame(pixels: PNGTestBytes.solid(4, 4, [0, 255, 0, 100]), delay: (2, 10))]
        let data = try PNGTestBytes.apng(canvas: PixelSize(width: 4, height: 4), frames: frames, plays: 1,
                                         defaultImage: PNGTestBytes.solid(4, 4, [9, 9, 9, 9]))
        let image = try PNGCoder().decode(data, options: .init())
        #expect(image.frameCount == 2 && image.loopCount == 1)
        #expect(image.frames[0].pixels.rgba8(x: 3, y: 3) == [0, 0, 255, 100])
        #expect(image.frames[1].pixels.rgba8(x: 0, y: 0) == [0, 255, 0, 100])
    }

    @Test func badSequenceNumbersAreCorrupt() throws {
        let data = try PNGTestBytes.apng(canvas: Self.canvas, frames: Self.frames, plays: 0, sequenceSkip: 2)
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().decode(data, options: .init()) }) else {
            Issue.record("a skipped sequence number must be corrupt")
            return
        }
    }

    @Test(arguments: ["IDAT", "fdAT", "IHDR"])
    func damagedChunkIsCorrupt(type: String) throws {
        var bytes = [UInt8](try Self.animation())
        // Flip the last data byte of the first chunk of `type`: its CRC no longer matches.
        let start = try #require((8..<bytes.count - 4).first { String(decoding: bytes[$0 ..< $0 + 4], as: UTF8.self) == type })
        let length = Int(PNGTestBytes.bigEndian(bytes, start - 4))
        bytes[start + 4 + length - 1] ^= 0x01
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().decode(Data(bytes), options: .init()) }) else {
            Issue.record("a damaged \(type) must be corrupt")
            return
        }
    }

    @Test func frameOutsideTheCanvasIsCorrupt() throws {
        var frames = Self.frames
        frames[1].x = 6 // 4 wide at x 6 on an 8-wide canvas
        let data = try PNGTestBytes.apng(canvas: Self.canvas, frames: frames, plays: 0)
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().decode(data, options: .init()) }) else {
            Issue.record("a frame outside the canvas must be corrupt")
            return
        }
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().makeAnimatedDecoder(data, options: .init()) }) else {
            Issue.record("the lazy decoder must reject it too")
            return
        }
    }

    @Test func truncatedAnimationIsAnError() throws {
        let data = try Self.animation()
        for length in [data.count - 30, data.count * 2 / 3] {
            #expect(throws: WebImageError.self) { try PNGCoder().decode(data.prefix(length), options: .init()) }
        }
    }

    @Test func encodeKeepsFramesDurationsAndLoopCount() throws {
        let source = try PNGCoder().decode(Self.animation(), options: .init())
        let png = try PNGCoder().encode(source, as: .png, options: .init())
        let chunks = PNGTestBytes.chunks([UInt8](png)).map(\.type)
        #expect(chunks.filter { $0 == "fcTL" }.count == 4 && chunks.contains("fdAT") && chunks[1] == "acTL")
        let decoded = try PNGCoder().decode(png, options: .init())
        #expect(decoded.frameCount == 4 && decoded.loopCount == 2)
        #expect(decoded.frameDurations == [0.1, 0.07, 0.05, 0.03])
        #expect(decoded.frames.map(\.pixels) == source.frames.map(\.pixels))

        let forever = try PNGCoder().decode(PNGCoder().encode(source, as: .png, options: .init(loopCount: 0)), options: .init())
        #expect(forever.loopCount == 0)
        let still = try PNGCoder().encode(source, as: .png, options: .init(firstFrameOnly: true))
        #expect(!PNGTestBytes.chunks([UInt8](still)).contains { $0.type == "acTL" })
    }

    @Test func encodesOpaqueAnimationAsRGB() throws {
        let frames = [ImageFrame(pixels: PNGTestBytes.solid(5, 3, Self.red), duration: 0.25),
                      ImageFrame(pixels: PNGTestBytes.solid(5, 3, [1, 2, 3, 255]), duration: 1.5)]
        let png = try PNGCoder().encode(Image(frames: frames, loopCount: 7, hasAlpha: false), as: .png, options: .init())
        #expect(png[25] == 2)
        let decoded = try PNGCoder().decode(png, options: .init())
        #expect(decoded.frames == frames && decoded.loopCount == 7 && !decoded.hasAlpha)
    }
}
