import Foundation
import Testing
import WebImageCore
@testable import WebImageCodecs

/// The progressive decoder over growing buffers and the lazy animated decoder's random access.
@Suite struct GIFIncrementalTests {
    /// A 40×40 opaque GIF with 256 colours (rows differ), optionally interlaced, written through giflib.
    static func opaqueGIF(interlaced: Bool) throws -> Data {
        let colors: [GIFColor] = (0..<256).map { (UInt8($0), UInt8(255 - $0), UInt8($0 / 2)) }
        let indices: [UInt8] = (0..<1600).map { (i: Int) -> UInt8 in UInt8((i * 37 + i / 40 * 11) % 256) }
        var frame = GIFWriterFrame(width: 40, height: 40, indices: indices)
        frame.isInterlaced = interlaced
        return try GIFWriter.write(screen: PixelSize(width: 40, height: 40), globalColors: colors, frames: [frame])
    }

    /// Rows of `partial` that are neither identical to the final image's row nor fully transparent.
    static func badRows(_ partial: PixelBuffer, final: PixelBuffer) -> [Int] {
        (0..<partial.height).filter { y in
            let row = (0..<partial.width).map { partial.rgba8(x: $0, y: y) }
            let want = (0..<final.width).map { final.rgba8(x: $0, y: y) }
            return row != want && !row.allSatisfy { $0 == [0, 0, 0, 0] }
        }
    }

    static func visibleRows(_ pixels: PixelBuffer) -> Set<Int> {
        Set((0..<pixels.height).filter { pixels.rgba8(x: 0, y: $0)[3] != 0 })
    }

    @Test(arguments: [false, true])
    func partialImagesShowDecodedRowsThenFinalMatchesOneShot(interlaced: Bool) throws {
        let data = try Self.opaqueGIF(interlaced: interlaced)
        let final = try GIFCoder().decode(data, options: .init())
        let decoder = GIFCoder().makeProgressiveDecoder(options: .init())
        var shown: [Set<Int>] = []
        for length in stride(from: 1, to: data.count, by: 64) {
            guard let partial = try decoder.decode(data.prefix(length), isFinished: false) else { continue }
            #expect(partial.isIncremental)
            #expect(Self.badRows(partial.pixels, final: final.pixels).isEmpty)
            shown.append(Self.visibleRows(partial.pixels))
        }
        #expect(shown.count >= 3)
        for (earlier, later) in zip(shown, shown.dropFirst()) { #expect(earlier.isStrictSubset(of: later)) }
        if interlaced, let first = shown.first {
            // The first pass holds every 8th row: a partial image shows rows 0, 8, … before row 1.
            #expect(first.contains(0) && !first.contains(1))
        }
        let finished = try #require(try decoder.decode(data, isFinished: true))
        #expect(!finished.isIncremental)
        #expect(finished.pixels == final.pixels)
    }

    @Test func framesAppearAsTheyArrive() throws {
        let data = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        let final = try GIFCoder().decode(data, options: .init())
        let decoder = GIFCoder().makeProgressiveDecoder(options: .init())
        var frameCounts: [Int] = []
        // The last prefix lacks only the trailer byte, so every frame is complete.
        for length in Array(stride(from: 500, to: data.count - 1, by: 3000)) + [data.count - 1] {
            guard let partial = try decoder.decode(data.prefix(length), isFinished: false) else { continue }
            #expect(partial.isIncremental)
            guard partial.frameCount > 1 else { continue }
            // Complete frames only: each equals the final image's frame, with its duration.
            #expect(partial.frames == Array(final.frames.prefix(partial.frameCount)))
            #expect(partial.loopCount == 10)
            frameCounts.append(partial.frameCount)
        }
        #expect(frameCounts == frameCounts.sorted() && Set(frameCounts).count == frameCounts.count)
        #expect(frameCounts.count >= 8)
        #expect(frameCounts.last == 14)
        #expect(try decoder.decode(data, isFinished: true)?.frames == final.frames)
    }

    @Test func partialImagesHonourThumbnailOptions() throws {
        let data = try Self.opaqueGIF(interlaced: false)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 10, height: 10))
        let decoder = GIFCoder().makeProgressiveDecoder(options: options)
        // giflib decodes whole 255-byte sub-blocks: at three quarters, some rows are ready.
        let partial = try #require(try decoder.decode(data.prefix(data.count * 3 / 4), isFinished: false))
        #expect(partial.pixelSize == PixelSize(width: 10, height: 10))
        #expect(partial.isIncremental && partial.isThumbnail)
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(final.pixels == (try GIFCoder().decode(data, options: options)).pixels)
    }

    @Test func headerOnlyPrefixesGiveNothingAndGarbageThrows() throws {
        let data = try Self.opaqueGIF(interlaced: false)
        let decoder = GIFCoder().makeProgressiveDecoder(options: .init())
        for length in [1, 6, 12, 13, 30] { #expect(try decoder.decode(data.prefix(length), isFinished: false) == nil) }
        #expect(GIFCoder().canDecodeIncrementally(Data([0x47])))
        #expect(!GIFCoder().canDecodeIncrementally(Data([0x89, 0x50])))
        #expect(throws: WebImageError.self) {
            try GIFCoder().makeProgressiveDecoder(options: .init()).decode(Data("GIF89a, this is not a gif".utf8), isFinished: true)
        }
    }

    @Test func truncatedFinalBufferThrowsTruncated() throws {
        let data = try Self.opaqueGIF(interlaced: false)
        let decoder = GIFCoder().makeProgressiveDecoder(options: .init())
        #expect(GIFTestSupport.badDataReason { _ = try decoder.decode(data.prefix(200), isFinished: true) } == .truncated)
    }

    /// Many frames mixing all disposals and a key frame; every access order gives the one-shot frames.
    @Test func randomAccessMatchesSequentialDecode() throws {
        let palette: [GIFColor] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        let frames: [GIFWriterFrame] = (0..<12).map { i in
            var frame = GIFWriterFrame(left: i % 3, top: i % 2, width: 3, height: 3, indices: [],
                                       transparentIndex: 3, disposal: i % 4, delayCentiseconds: i + 2)
            if i == 6 {
                // A key frame: covers the screen, opaque, not undone.
                (frame.left, frame.top, frame.width, frame.height) = (0, 0, 6, 5)
                (frame.transparentIndex, frame.disposal) = (nil, 1)
            }
            let count = frame.width * frame.height
            frame.indices = (0..<count).map { (p: Int) -> UInt8 in UInt8((p + i) % 4) }
            return frame
        }
        let data = try GIFWriter.write(screen: PixelSize(width: 6, height: 5), globalColors: palette, loopCount: 0, frames: frames)
        let full = try GIFCoder().decode(data, options: .init())
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.frameCount == 12)
        #expect(decoder.hasAlpha == full.hasAlpha)
        #expect((0..<12).map { decoder.frameDuration(at: $0) } == full.frameDurations)
        for index in [11, 3, 4, 5, 9, 0, 7, 6, 2, 10, 1, 8] {
            #expect(try decoder.frame(at: index) == full.frames[index].pixels, "frame \(index)")
        }
        #expect(GIFTestSupport.badDataReason { _ = try decoder.frame(at: 12) } == .frameOutOfRange(index: 12, count: 12))
    }

    /// Our encoder clears the screen after each transparent frame, so every frame is a restart point.
    @Test func randomAccessOverEncodedTransparentAnimation() throws {
        let frames = (0..<6).map { (i: Int) -> ImageFrame in
            let level = UInt8(i * 40), lastAlpha: UInt8 = i % 2 == 0 ? 255 : 0
            let quads: [[UInt8]] = [[level, 0, 0, 255], [0, 0, 0, 0], [0, lastAlpha == 0 ? 0 : level, 0, lastAlpha]]
            return ImageFrame(pixels: GIFTestSupport.buffer(width: 3, height: 1, quads), duration: 0.1)
        }
        let data = try GIFCoder().encode(Image(frames: frames), as: .gif, options: .init())
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        for index in [5, 2, 4, 0, 3, 1] { #expect(try decoder.frame(at: index) == frames[index].pixels, "frame \(index)") }
    }

    @Test func animatedDecoderIsSafeAcrossThreads() async throws {
        let data = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        let reference = try GIFCoder().decode(data, options: .init()).frames.map(\.pixels)
        let results = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for i in 0..<42 {
                let index = (i * 5) % 14
                group.addTask { (index, try decoder.frame(at: index)) }
            }
            return try await group.reduce(into: [(Int, PixelBuffer)]()) { $0.append($1) }
        }
        #expect(results.count == 42)
        for (index, pixels) in results { #expect(pixels == reference[index], "frame \(index)") }
    }
}
