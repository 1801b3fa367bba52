import CTurboJPEG
import Foundation
import WebImage

/// What the cancellation checks cost where a token changes the path taken: each decode, resample and encode
/// without a token beside the same under a token never cancelled (large JPEGs then go through libjpeg with
/// its progress monitor instead of TurboJPEG, WebP through libwebp's incremental decoder), best of 5 each.
enum PollingCostBenchmark {
    static func run() throws {
        let photo = PhotoRaster.make(width: 4000, height: 3000)
        let image = Image(pixels: photo, hasAlpha: false)
        let cases: [(name: String, body: () throws -> Void)] = [
            ("JPEG baseline 4000×3000 decode", try decoding(JPEGCoder().encode(image, as: .jpeg, options: .init(quality: 0.85)),
                                                            with: JPEGCoder())),
            ("JPEG progressive 4000×3000 decode", try decoding(progressiveJPEG(photo), with: JPEGCoder())),
            ("PNG 4000×3000 decode", try decoding(PNGCoder().encode(image, as: .png, options: .init(effort: .fastest)),
                                                  with: PNGCoder())),
            ("WebP 4000×3000 decode", try decoding(WebPCoder().encode(image, as: .webp, options: .init(quality: 0.8)),
                                                   with: WebPCoder())),
            ("resample 4000×3000 → 1000×750", { _ = Resampler.resample(photo, to: PixelSize(width: 1000, height: 750)) }),
            ("WebP 4000×3000 encode", {
                _ = try WebPCoder().encode(image, as: .webp, options: .init(quality: 0.8, effort: .fastest))
            }),
        ]
        for (name, body) in cases {
            let plain = try Measure.best(body)
            let polled = try Measure.best { try WorkCancellation().run(body) }
            print(String(format: "%@: %.1f ms without a token, %.1f ms under one (×%.2f)", name, plain * 1e3,
                         polled * 1e3, polled / plain))
        }
    }

    private static func decoding(_ data: Data, with coder: any ImageCoding) -> () throws -> Void {
        { _ = try coder.decode(data, options: ImageDecodeOptions()) }
    }

    /// libjpeg-turbo's default progressive scan script at quality 85, 4:2:0.
    private static func progressiveJPEG(_ pixels: PixelBuffer) throws -> Data {
        guard let handle = tjInitCompress() else { throw DeadlineBenchmark.Failure.status(0) }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(output) }
        let status = pixels.withUnsafeBytes { raw in
            tjCompress2(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(pixels.width), 0,
                        Int32(pixels.height), Int32(TJPF_RGBA.rawValue), &output, &length, Int32(TJSAMP_420.rawValue), 85,
                        TJFLAG_PROGRESSIVE)
        }
        guard status == 0, let output else { throw DeadlineBenchmark.Failure.status(Int(status)) }
        return Data(bytes: output, count: Int(length))
    }
}
