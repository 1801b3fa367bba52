import CTurboJPEG
import Foundation
import WebImage

/// JPEGCoder beside raw TurboJPEG on the same in-memory 12 MP JPEGs: full decodes (raw reuses one output
/// buffer; ours allocates the image it returns) and 256-pixel thumbnails (raw: 1/8 IDCT + the same Resampler).
enum JPEGBenchmarks {
    static let width = 4000, height = 3000

    static func run() throws {
        let photo = makePhoto()
        let megapixels = Double(width * height) / 1e6
        for (name, flags) in [("baseline", Int32(0)), ("progressive", TJFLAG_PROGRESSIVE)] {
            let jpeg = try compress(photo, flags: flags)
            let coder = JPEGCoder()
            let ours = try Measure.best(repeats: 9) { _ = try coder.decode(jpeg, options: .init()) }
            let raw = try rawDecodeTime(jpeg)
            Measure.row("decode 12 MP \(name) (\(jpeg.count / 1024) KB)", ours: megapixels / ours,
                        theirs: megapixels / raw, unit: "MP/s", higherIsBetter: true)

            let target = PixelSize(width: 256, height: 256)
            let oursThumb = try Measure.best(repeats: 9) { _ = try coder.decode(jpeg, options: .init(thumbnailPixelSize: target)) }
            let rawThumb = try rawThumbnailTime(jpeg)
            Measure.row("thumbnail 12 MP \(name) → 256×192", ours: oursThumb * 1000, theirs: rawThumb * 1000,
                        unit: "ms", higherIsBetter: false)
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

    private static func rawDecodeTime(_ jpeg: Data) throws -> Double {
        guard let handle = tjInitDecompress() else { throw WebImageError.badImageData(.corrupt("tjInitDecompress")) }
        defer { tjDestroy(handle) }
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        return try Measure.best(repeats: 9) {
            let status = jpeg.withUnsafeBytes { source in
                buffer.withUnsafeMutableBufferPointer { out in
                    tjDecompress2(handle, source.bindMemory(to: UInt8.self).baseAddress, UInt(jpeg.count), out.baseAddress,
                                  Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue), 0)
                }
            }
            if status != 0 { throw WebImageError.badImageData(.corrupt("tjDecompress2")) }
        }
    }

    private static func rawThumbnailTime(_ jpeg: Data) throws -> Double {
        guard let handle = tjInitDecompress() else { throw WebImageError.badImageData(.corrupt("tjInitDecompress")) }
        defer { tjDestroy(handle) }
        let scaledWidth = (width + 7) / 8, scaledHeight = (height + 7) / 8
        var buffer = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 4)
        return try Measure.best(repeats: 9) {
            let status = jpeg.withUnsafeBytes { source in
                buffer.withUnsafeMutableBufferPointer { out in
                    tjDecompress2(handle, source.bindMemory(to: UInt8.self).baseAddress, UInt(jpeg.count), out.baseAddress,
                                  Int32(scaledWidth), 0, Int32(scaledHeight), Int32(TJPF_RGBA.rawValue), 0)
                }
            }
            if status != 0 { throw WebImageError.badImageData(.corrupt("tjDecompress2")) }
            let scaled = PixelBuffer(width: scaledWidth, height: scaledHeight, bytes: buffer)
            _ = Resampler.resample(scaled, to: PixelSize(width: 256, height: 192))
        }
    }
}
