import CTurboJPEG
import Foundation
import WebImage

/// JPEGCoder beside raw TurboJPEG on the same in-memory 12 MP JPEGs: full decodes with one reused output
/// buffer on both sides (`decode(_:reusing:options:)`), then with a fresh raster per decode on both sides (the
/// default `decode(_:options:)` against a new malloc'd buffer), and 256-pixel thumbnails (raw: 1/8 IDCT + the
/// same Resampler, both reusing their buffers). Ours and raw runs alternate, best of each kept (thread CPU
/// time; see `Measure.interleavedBest`).
enum JPEGBenchmarks {
    static let width = 4000, height = 3000

    static func run() throws {
        let photo = makePhoto()
        let megapixels = Double(width * height) / 1e6
        for (name, flags) in [("baseline", Int32(0)), ("progressive", TJFLAG_PROGRESSIVE)] {
            let jpeg = try compress(photo, flags: flags)
            let coder = JPEGCoder()
            let raw = try RawTurboJPEG(jpeg: jpeg)
            var buffer = PixelBuffer(width: 1, height: 1)
            let reused = try Measure.interleavedBest(
                { _ = try coder.decode(jpeg, reusing: &buffer, options: .init()) }, { try raw.decodeFull() })
            Measure.decodeRow("decode 12 MP \(name) (\(jpeg.count / 1024) KB), reused", megapixels: megapixels,
                              reused)
            let fresh = try Measure.interleavedBest(
                { _ = try coder.decode(jpeg, options: .init()) }, { try raw.decodeFresh() })
            Measure.decodeRow("decode 12 MP \(name), fresh raster", megapixels: megapixels, fresh)

            let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256))
            let thumbnail = try Measure.interleavedBest(
                { _ = try coder.decode(jpeg, reusing: &buffer, options: options) }, { try raw.thumbnail() })
            Measure.row("thumbnail 12 MP \(name) → 256×192", ours: thumbnail.ours.cpu * 1000,
                        theirs: thumbnail.theirs.cpu * 1000, unit: "ms", higherIsBetter: false)
            let ratio = 1 / thumbnail.medianRatio
            print(String(format: "  time ours/raw median of rounds %.3f× (target ≤ 1.2×) %@   [best-of %.3f×, wall-clock %.3f×]",
                         ratio, ratio <= 1.2 ? "met" : "NOT MET", thumbnail.ours.cpu / thumbnail.theirs.cpu,
                         thumbnail.ours.wall / thumbnail.theirs.wall))
        }
    }

    /// Smooth gradients plus deterministic noise, so the entropy coder has photo-like work to do.
    private static func makePhoto() -> [UInt8] {
        var state: UInt32 = 12345
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 27) - 16
                let i = (y * width + x) * 4
                pixels[i] = UInt8(clamping: x * 255 / width + noise)
                pixels[i + 1] = UInt8(clamping: y * 255 / height - noise)
                pixels[i + 2] = UInt8(clamping: (x + y) * 255 / (width + height) + noise / 2)
            }
        }
        return pixels
    }

    private static func compress(_ pixels: [UInt8], flags: Int32) throws -> Data {
        guard let handle = tjInitCompress() else { throw WebImageError.encodingFailed(format: .jpeg, reason: "tjInitCompress") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(output) }
        let status = tjCompress2(handle, pixels, Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue), &output,
                                 &length, Int32(TJSAMP_420.rawValue), 90, flags)
        guard status == 0, let output else { throw WebImageError.encodingFailed(format: .jpeg, reason: "tjCompress2") }
        return Data(bytes: output, count: Int(length))
    }
}

/// Raw TurboJPEG with everything reusable kept: one handle, one full-size and one 1/8-size output buffer.
private final class RawTurboJPEG {
    private let jpeg: Data
    private let handle: tjhandle
    private var full = [UInt8](repeating: 0, count: JPEGBenchmarks.width * JPEGBenchmarks.height * 4)
    private let scaledWidth = (JPEGBenchmarks.width + 7) / 8, scaledHeight = (JPEGBenchmarks.height + 7) / 8
    private var scaled: [UInt8]

    init(jpeg: Data) throws {
        guard let handle = tjInitDecompress() else { throw WebImageError.badImageData(.corrupt("tjInitDecompress")) }
        self.jpeg = jpeg
        self.handle = handle
        scaled = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 4)
    }

    deinit { tjDestroy(handle) }

    func decodeFull() throws {
        try decode(into: &full, width: JPEGBenchmarks.width, height: JPEGBenchmarks.height)
    }

    /// A full decode into a newly allocated buffer, as a caller keeping each result would do it.
    func decodeFresh() throws {
        let count = JPEGBenchmarks.width * JPEGBenchmarks.height * 4
        var fresh = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        try decode(into: &fresh, width: JPEGBenchmarks.width, height: JPEGBenchmarks.height)
    }

    /// 1/8 IDCT into the reused buffer, then the same area filter JPEGCoder ends with.
    func thumbnail() throws {
        try decode(into: &scaled, width: scaledWidth, height: scaledHeight)
        let pixels = PixelBuffer(width: scaledWidth, height: scaledHeight, bytes: scaled)
        _ = Resampler.resample(pixels, to: PixelSize(width: 256, height: 192))
    }

    private func decode(into buffer: inout [UInt8], width: Int, height: Int) throws {
        let status = jpeg.withUnsafeBytes { source in
            buffer.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, source.bindMemory(to: UInt8.self).baseAddress, UInt(jpeg.count), out.baseAddress,
                              Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        if status != 0 { throw WebImageError.badImageData(.corrupt("tjDecompress2")) }
    }
}
