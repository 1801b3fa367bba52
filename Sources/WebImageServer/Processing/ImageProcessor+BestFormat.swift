import Foundation
import WebImage

/// imgproxy Pro's `best` format: the result encoded in each candidate that can hold it, the smallest answered.
extension ImageProcessor {
    /// One way of writing a candidate: its format, and whether WebP is written losslessly.
    struct BestCandidate: Equatable {
        let format: ImageFormat
        let lossless: Bool
    }

    /// What every result is tried in: the lossy formats, and GIF for an animation.
    static let lossyCandidates = [ImageFormat.jpeg, .webp, .avif, .jxl, .gif].map {
        BestCandidate(format: $0, lossless: false)
    }
    /// What a simple result (flat colours, drawings) is tried in first: PNG and lossless WebP. The lossy ones are
    /// tried beside them: a measure of busyness can misjudge a photo, and the smallest still wins.
    static let losslessCandidates = [BestCandidate(format: .png, lossless: true),
                                     BestCandidate(format: .webp, lossless: true)]

    /// `result` in the smallest of `candidates` that holds it (`package` for `webimage-benchmarks best-format`).
    package func encodeBest(_ result: Image, candidates: [ImageFormat],
                            options: ProcessingOptions) throws(ProxyError) -> (data: Data, format: ImageFormat) {
        let settings = encoding.bestFormat
        let simple = Self.complexity(of: result.pixels) < settings.complexityThreshold
        // GIF's 256 colours are for animations only.
        var tried = ((simple ? Self.losslessCandidates : []) + Self.lossyCandidates).filter {
            candidates.contains($0.format) && FormatChoice.holds(result, in: $0.format)
                && ($0.format != .gif || result.frameCount > 1)
        }
        if tried.isEmpty {
            let format = candidates.first { FormatChoice.holds(result, in: $0) } ?? candidates[0]
            tried = [BestCandidate(format: format, lossless: false)]
        }
        let megapixels = Double(result.pixels.width * result.pixels.height) / 1_000_000
        // Too large to encode several times: the way that usually wins for such a result.
        if settings.maxMegapixels > 0, megapixels > settings.maxMegapixels {
            let usual = simple ? [ImageFormat.webp, .png, .gif] : [.avif, .webp, .jxl, .jpeg, .gif]
            tried = [usual.lazy.compactMap { format in tried.first { $0.format == format } }.first ?? tried[0]]
        }
        let encoded = try tried.map { candidate throws(ProxyError) in
            var options = options
            if candidate.lossless, candidate.format == .webp { options.webpOptions.compression = .lossless }
            let format = candidate.format
            return (data: try encode(result.fitted(to: format), as: format, options: options), format: format)
        }
        // The first (the order above) among equals.
        return encoded.min { $0.data.count < $1.data.count } ?? encoded[0]
    }

    /// How busy an image is: the mean absolute difference of luma (0–255) between each pixel and its right and
    /// lower neighbours, over the first frame. Flat drawings measure about 1; photos from about 2 (large, smooth
    /// ones) to 20.
    package static func complexity(of pixels: PixelBuffer) -> Double {
        let source = pixels.converted(to: .rgba8)
        let width = source.width, height = source.height
        guard width > 1 || height > 1 else { return 0 }
        return source.withUnsafeBytes { raw in
            func luma(_ i: Int) -> Int { (54 * Int(raw[i]) + 183 * Int(raw[i + 1]) + 19 * Int(raw[i + 2])) >> 8 }
            var sum = 0, count = 0
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4, here = luma(i)
                    if x + 1 < width { sum += abs(here - luma(i + 4)); count += 1 }
                    if y + 1 < height { sum += abs(here - luma(i + width * 4)); count += 1 }
                }
            }
            return Double(sum) / Double(max(1, count))
        }
    }
}
