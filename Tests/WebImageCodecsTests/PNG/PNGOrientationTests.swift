import Foundation
import Testing
import WebImage

/// EXIF orientation from PNG's eXIf chunk: read in both byte orders, applied on request like JPEG's, and
/// `.up` when the chunk is missing or malformed.
@Suite struct PNGOrientationTests {
    private let coder = PNGCoder()

    private func patternPNG() throws -> Data {
        try coder.encode(Image(pixels: EXIFTestBytes.pattern(), hasAlpha: false), as: .png, options: .init())
    }

    @Test(arguments: 1...8, [false, true])
    func orientationIsReadAndApplied(value: Int, littleEndian: Bool) throws {
        let data = EXIFTestBytes.png(try patternPNG(), exif: EXIFTestBytes.tiff(value, littleEndian: littleEndian))
        try EXIFTestBytes.expectOrientation(data, decodedBy: coder, exifValue: value)
    }

    @Test func exifPrefixedPayloadIsRead() throws {
        let data = EXIFTestBytes.png(try patternPNG(), exif: EXIFTestBytes.exifPrefix + EXIFTestBytes.tiff(6))
        #expect(try coder.decode(data, options: .init()).orientation == .right)
    }

    @Test func chunkAfterImageDataIsRead() throws {
        let data = EXIFTestBytes.png(try patternPNG(), exif: EXIFTestBytes.tiff(8), afterImageData: true)
        #expect(try coder.decode(data, options: .init()).orientation == .left)
    }

    @Test(arguments: EXIFTestBytes.malformedPayloads)
    func malformedPayloadReadsUpAndStillDecodes(payload: [UInt8]) throws {
        let image = try coder.decode(EXIFTestBytes.png(try patternPNG(), exif: payload), options: .init(applyOrientation: true))
        #expect(image.orientation == .up)
        #expect(image.pixels == EXIFTestBytes.pattern())
    }

    @Test func chunkWithBadCRCReadsUp() throws {
        var bytes = [UInt8](EXIFTestBytes.png(try patternPNG(), exif: EXIFTestBytes.tiff(6)))
        // eXIf starts right after the signature and IHDR (33 bytes); its CRC is its last four bytes.
        bytes[33 + 8 + EXIFTestBytes.tiff(6).count + 3] ^= 0xFF
        let image = try coder.decode(Data(bytes), options: .init())
        #expect(image.orientation == .up)
        #expect(image.pixels == EXIFTestBytes.pattern())
    }

    @Test func imageWithoutChunkStaysUp() throws {
        #expect(try coder.decode(try patternPNG(), options: .init(applyOrientation: true)).orientation == .up)
    }

    /// Written by Pillow 9.4 (`exif` with orientation 6, eXIf before IDAT); its pixels checked against Pillow.
    @Test func pillowFixtureReadsRight() throws {
        try EXIFTestBytes.expectOrientation(try TestPaths.data(TestPaths.fixture("png", "pillow-exif6.png")),
                                          decodedBy: coder, exifValue: 6)
    }

    @Test func animatedPNGFramesAreRotated() throws {
        // The test APNG writer needs RGBA frames, so the pattern gets one translucent pixel (bottom right).
        var first = EXIFTestBytes.pattern()
        first.withUnsafeMutableBytes { $0[$0.count - 1] = 128 }
        let frames = [PNGTestBytes.Frame(pixels: first, delay: (1, 10)),
                      PNGTestBytes.Frame(pixels: PNGTestBytes.solid(4, 3, [0, 255, 0, 128]), delay: (1, 10))]
        let apng = try PNGTestBytes.apng(canvas: PixelSize(width: 4, height: 3), frames: frames, plays: 0)
        let data = EXIFTestBytes.png(apng, exif: EXIFTestBytes.tiff(6, littleEndian: false))
        let stored = try coder.decode(data, options: .init())
        #expect(stored.frameCount == 2 && stored.orientation == .right)
        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.frames.map(\.pixels) == stored.frames.map { $0.pixels.applying(.right) })
        #expect(upright.frames[0].pixels.rgba8(x: 2, y: 0) == [10, 10, 200, 255])
        // The frame-by-frame decoder delivers frames as stored and reports what they still need.
        #expect(try coder.makeAnimatedDecoder(data, options: .init()).orientation == .right)
    }

    /// eXIf precedes IDAT, so every partial image already carries the orientation (and applies it on request).
    @Test func progressiveDecodeReportsOrientationOnceChunkArrived() throws {
        let photo = JPEGTestSupport.smoothImage(width: 64, height: 48)
        let png = try coder.encode(Image(pixels: photo, hasAlpha: false), as: .png, options: .init())
        let data = EXIFTestBytes.png(png, exif: EXIFTestBytes.tiff(6))
        let decoder = coder.makeProgressiveDecoder(options: .init(applyOrientation: true))
        var partials: [Image] = []
        for end in stride(from: 512, to: data.count, by: 512) {
            if let image = try decoder.decode(data.prefix(end), isFinished: false) { partials.append(image) }
        }
        let final = try decoder.decode(data, isFinished: true)
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.isIncremental && $0.pixelSize == PixelSize(width: 48, height: 64) })
        #expect(final?.pixels == photo.applying(.right))
    }
}
