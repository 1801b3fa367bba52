import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct JXLDecodeTests {
    private let coder = JXLCoder()

    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("jxl/\(name)")
    }

    @Test func sniffsCodestreamAndContainer() {
        #expect(ImageFormat(sniffing: Data([0xFF, 0x0A, 0x00])) == .jxl)
        #expect(ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF])) == .jpeg)
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0, 0, 0, 0x14]
        #expect(ImageFormat(sniffing: Data(container)) == .jxl)
        #expect(ImageFormat(sniffing: Data(container.prefix(11))) == .undefined)
        #expect(coder.canDecode(Data(container)))
        #expect(!coder.canDecode(Data([0xFF, 0xD8, 0xFF])))
    }

    /// Sources finer than 8 bits keep 16-bit storage; 8-bit ones are 8-bit.
    @Test(arguments: [("alpha_triangles.jxl", PixelFormat.rgba16), ("lossless_pfm.jxl", .rgba16),
                      ("spot.jxl", .rgba16), ("lz77_flower.jxl", .rgba8)])
    func sampleDepthDecidesTheStorage(file: String, format: PixelFormat) throws {
        #expect(try coder.decode(try corpus(file), options: .init()).pixelFormat == format)
    }

    /// The orientation is reported (libjxl keeps the stored pixels) and applied only when asked.
    @Test func orientationIsReportedThenAppliedOnce() throws {
        let data = try corpus("bench_oriented_brg.jxl")
        let stored = try coder.decode(data, options: .init())
        #expect(stored.orientation == .leftMirrored)
        #expect(stored.pixelSize == PixelSize(width: 500, height: 606))
        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixels == stored.pixels.applying(.leftMirrored))
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let data = try corpus("progressive.jxl")
        let options = ImageDecodeOptions(maxPixelCount: 1_000_000)
        #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: options) }
                == .tooManyPixels(width: 4064, height: 2704, limit: 1_000_000))
        #expect(GIFTestSupport.badDataReason { _ = try coder.makeAnimatedDecoder(data, options: options) }
                == .tooManyPixels(width: 4064, height: 2704, limit: 1_000_000))
        let progressive = coder.makeProgressiveDecoder(options: options)
        #expect(GIFTestSupport.badDataReason { _ = try progressive.decode(data.prefix(4096), isFinished: false) }
                == .tooManyPixels(width: 4064, height: 2704, limit: 1_000_000))
    }

    @Test func thumbnailAndScaleDownFollowTheSharedSizeRules() throws {
        let data = try corpus("patches_lossless.jxl")
        let source = PixelSize(width: 1600, height: 1096)
        let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 200, height: 200))
        let small = try coder.decode(data, options: thumbnail)
        #expect(small.pixelSize == thumbnail.targetSize(forSource: source))
        #expect(small.isThumbnail)
        let limited = ImageDecodeOptions(scaleDownLimitBytes: 1_000_000)
        #expect(try coder.decode(data, options: limited).pixelSize == limited.targetSize(forSource: source))
    }

    @Test func reusingABufferGivesTheSameImage() throws {
        let data = try corpus("lz77_flower.jxl")
        var scratch = PixelBuffer(width: 1000, height: 1000)
        let reused = try coder.decode(data, reusing: &scratch, options: .init())
        #expect(reused.pixels == (try coder.decode(data, options: .init())).pixels)
    }

    @Test func garbageAndTruncationAreTypedErrors() throws {
        let data = try corpus("lz77_flower.jxl")
        for length in [0, 1, 2, 10, 100, data.count / 2, data.count - 1] {
            #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data.prefix(length), options: .init()) } != nil,
                    "cut to \(length)")
        }
        var corrupt = [UInt8](data)
        for i in stride(from: 20, to: corrupt.count, by: 97) { corrupt[i] ^= 0x5A }
        #expect(throws: WebImageError.self) { try coder.decode(Data(corrupt), options: .init()) }
        #expect(throws: WebImageError.self) { try coder.decode(Data([0xFF, 0x0A] + [UInt8](repeating: 0xFF, count: 64)), options: .init()) }
    }
}
