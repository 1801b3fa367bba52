import Foundation
import Testing
import WebImage

/// Progressive display while the bytes arrive.
@Suite struct PNGProgressiveTests {
    /// Feeds `data` `step` bytes at a time; returns the partial images and the final one.
    static func feed(_ data: Data, step: Int, options: ImageDecodeOptions = .init()) throws -> (partials: [Image], final: Image?) {
        let decoder = PNGCoder().makeProgressiveDecoder(options: options)
        var partials: [Image] = []
        var length = 0
        while length < data.count {
            length = min(data.count, length + step)
            if let image = try decoder.decode(data.prefix(length), isFinished: false) { partials.append(image) }
        }
        return (partials, try decoder.decode(data, isFinished: true))
    }

    @Test func interlacedFixtureShowsPassesThenTheFullImage() throws {
        // 240×160 RGBA, Adam7, made with ImageMagick; FNV-1a of Pillow's RGBA decode.
        let data = try Data(contentsOf: TestPaths.fixture("png", "interlaced-rgba.png"))
        let oneShot = try PNGCoder().decode(data, options: .init())
        #expect(PNGTestBytes.fnv1a(oneShot.pixels.bytes) == 0xF5E9_A070_61DF_7CC0)

        #expect(PNGCoder().canDecodeIncrementally(data.prefix(4)))
        let (partials, final) = try Self.feed(data, step: 4096)
        #expect(partials.count >= 2)
        #expect(partials.allSatisfy { $0.isIncremental && $0.pixelSize == oneShot.pixelSize })
        // Later passes only sharpen: the last partial is closer to the final image than the first.
        if let first = partials.first, let last = partials.last {
            #expect(Self.difference(last.pixels, oneShot.pixels) < Self.difference(first.pixels, oneShot.pixels))
            // After the first pass the top-left pixel of every 8×8 block is final.
            #expect(first.pixels.rgba8(x: 8, y: 16) == oneShot.pixels.rgba8(x: 8, y: 16))
        }
        let finished = try #require(final)
        #expect(!finished.isIncremental && finished.pixels == oneShot.pixels && finished.hasAlpha == oneShot.hasAlpha)
    }

    @Test func nonInterlacedImageShowsRows() throws {
        // Pseudo-random samples, so the file is large enough to arrive in several pieces.
        var state: UInt32 = 1
        let bytes = (0..<300 * 200 * 4).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
        let pixels = PixelBuffer(width: 300, height: 200, bytes: bytes)
        let data = try PNGCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .png, options: .init())
        #expect(data.count > 200_000)
        let (partials, final) = try Self.feed(data, step: 4096)
        #expect(partials.count >= 2)
        if let first = partials.first {
            #expect(first.pixels.rgba8(x: 5, y: 0) == pixels.rgba8(x: 5, y: 0))
            #expect(first.pixels.rgba8(x: 5, y: 199) == [0, 0, 0, 0])
        }
        #expect(try #require(final).pixels == pixels)
    }

    @Test func finalCallMayBringTheLastBytes() throws {
        let data = try Data(contentsOf: TestPaths.fixture("png", "interlaced-rgba.png"))
        let decoder = PNGCoder().makeProgressiveDecoder(options: .init())
        _ = try decoder.decode(data.prefix(data.count - 3000), isFinished: false)
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(try !final.isIncremental && final.pixels == PNGCoder().decode(data, options: .init()).pixels)
    }

    @Test func truncatedDownloadFailsAtTheEnd() throws {
        let data = try Data(contentsOf: TestPaths.fixture("png", "interlaced-rgba.png")).prefix(30_000)
        let decoder = PNGCoder().makeProgressiveDecoder(options: .init())
        #expect(try decoder.decode(data, isFinished: false)?.isIncremental == true)
        #expect(PNGTestBytes.badDataReason { _ = try decoder.decode(data, isFinished: true) } == .truncated)
    }

    @Test func finalImageHonoursOptions() throws {
        let data = try Data(contentsOf: TestPaths.fixture("png", "interlaced-rgba.png"))
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 60, height: 60))
        let (partials, final) = try Self.feed(data, step: 8192, options: options)
        #expect(partials.allSatisfy { $0.pixelSize == PixelSize(width: 60, height: 40) })
        #expect(try #require(final).pixels == PNGCoder().decode(data, options: options).pixels)
    }

    @Test func damagedStreamFails() throws {
        var data = [UInt8](try Data(contentsOf: TestPaths.fixture("png", "interlaced-rgba.png")))
        data[29] ^= 0xFF // IHDR CRC
        #expect(throws: WebImageError.self) { try Self.feed(Data(data), step: 4096) }
        #expect(throws: WebImageError.self) {
            try PNGCoder().makeProgressiveDecoder(options: .init()).decode(Data(data.prefix(5000)), isFinished: true)
        }
    }

    /// Sum of absolute sample differences.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    }
}
