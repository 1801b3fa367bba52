import CWebP
import Foundation
import WebImage

/// `WebPCoder` against libwebp's own `WebPDecodeRGBAInto` on the same bytes — a 12 MP lossy photo and a 3 MP
/// lossless one, both made in memory by our encoder — decoding into one reused buffer on both sides
/// (`decode(_:reusing:options:)`), then into a fresh raster per decode on both sides (the default path).
enum WebPBenchmarks {
    static func run() throws {
        let coder = WebPCoder()
        let lossy = try coder.encode(Image(pixels: PhotoRaster.make(width: 4000, height: 3000), hasAlpha: false),
                                     as: .webp, options: ImageEncodeOptions(quality: 0.8))
        try compare("decode 12 MP lossy (\(lossy.count / 1024) KB)", lossy, coder: coder)
        let lossless = try coder.encode(Image(pixels: PhotoRaster.make(width: 2000, height: 1500), hasAlpha: false),
                                        as: .webp, options: ImageEncodeOptions(quality: 0.25, lossless: true))
        try compare("decode 3 MP lossless (\(lossless.count / 1024) KB)", lossless, coder: coder)
    }

    private static func compare(_ name: String, _ data: Data, coder: WebPCoder) throws {
        let probe = try coder.decode(data, options: .init())
        let megapixels = Double(probe.pixelSize.pixelCount) / 1e6
        let count = probe.pixelSize.pixelCount * 4
        var output = [UInt8](repeating: 0, count: count)
        let stride = Int32(probe.pixelWidth * 4)
        func decodeRaw(into output: inout [UInt8]) {
            let result = data.withUnsafeBytes { bytes in
                output.withUnsafeMutableBufferPointer { out in
                    WebPDecodeRGBAInto(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
                                       out.baseAddress, out.count, stride)
                }
            }
            precondition(result != nil, "libwebp failed to decode the benchmark image")
        }
        var buffer = PixelBuffer(width: 1, height: 1)
        // The 3 MP image decodes in tens of milliseconds: more rounds for a stable best on a busy machine.
        let rounds = megapixels > 6 ? 15 : 31
        let reused = try Measure.interleavedBest(rounds: rounds,
            { _ = try coder.decode(data, reusing: &buffer, options: .init()) }, { decodeRaw(into: &output) })
        precondition(output == probe.pixels.bytes && buffer == probe.pixels, "raw libwebp and WebPCoder disagree")
        Measure.decodeRow("\(name), reused", megapixels: megapixels, reused)
        let fresh = try Measure.interleavedBest(rounds: rounds, { _ = try coder.decode(data, options: .init()) }, {
            var fresh = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
            decodeRaw(into: &fresh)
        })
        Measure.decodeRow("\(name), fresh raster", megapixels: megapixels, fresh)
    }
}
