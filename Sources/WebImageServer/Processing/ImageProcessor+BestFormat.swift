import Foundation
import WebImage

/// imgproxy Pro's `best` format: the result encoded in each candidate that can hold it, the smallest answered.
extension ImageProcessor {
    /// The formats tried for a complex result (a photo): the lossy ones, and GIF for an animation.
    static let lossyCandidates: [ImageFormat] = [.jpeg, .webp, .avif, .jxl, .gif]
    /// The formats tried for a simple result (flat colours, drawings), WebP written losslessly, and GIF for an
    /// animation.
    static let losslessCandidates: [ImageFormat] = [.png, .webp, .gif]

    /// `result` in the smallest of `candidates` that holds it (`package` for `webimage-benchmarks best-format`).
    package func encodeBest(_ result: Image, candidates: [ImageFormat],
                    options: ProcessingOptions) throws(ProxyError) -> (data: Data, format: ImageFormat) {
        let settings = encoding.bestFormat
        let simple = Self.complexity(of: result.pixels) < settings.complexityThreshold
        var options = options
        if simple { options.webpOptions.compression = .lossless }
        let order = simple ? Self.losslessCandidates : Self.lossyCandidates
        // GIF's 256 colours are for animations only.
        var tried = order.filter {
            candidates.contains($0) && FormatChoice.holds(result, in: $0) && ($0 != .gif || result.frameCount > 1)
        }
        if tried.isEmpty {
            let format = candidates.first { FormatChoice.holds(result, in: $0) } ?? candidates[0]
            return (try encode(result.fitted(to: format), as: format, options: options), format)
        }
        let megapixels = Double(result.pixels.width * result.pixels.height) / 1_000_000
        // Too large to encode several times: the format that usually wins for such a result.
        if settings.maxMegapixels > 0, megapixels > settings.maxMegapixels {
            let usual: [ImageFormat] = simple ? [.webp, .png, .gif] : [.avif, .webp, .jxl, .jpeg, .gif]
            tried = [usual.first { tried.contains($0) } ?? tried[0]]
        }
        let encoded = try tried.map { format throws(ProxyError) in
            (data: try encode(result.fitted(to: format), as: format, options: options), format: format)
        }
        // The first (the order above) among equals.
        return encoded.min { $0.data.count < $1.data.count } ?? encoded[0]
    }

    /// How busy an image is: the mean absolute difference of luma (0–255) between each pixel and its right and
    /// lower neighbours, over the first frame. Flat drawings stay below 2–3, photos go from about 5 to 20.
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
