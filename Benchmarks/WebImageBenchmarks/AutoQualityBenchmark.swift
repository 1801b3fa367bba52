import Foundation
import TestSupport
import WebImage
import WebImageServer

/// What imgproxy Pro's autoquality costs and saves beside the service's fixed default quality
/// (`webimage-benchmarks autoquality`). The photos are smart gravity's benchmark photos (the corpus's, decoded by
/// our coders), each fitted to 800 and 300 px wide with the service's resampler (never enlarged), encoded as JPEG,
/// WebP and AVIF with the service's encoder settings (WebP method 4, AVIF speed 10). Per image and format:
/// - fixed: one encode at the service's default quality (JPEG 80, WebP 79, AVIF 63);
/// - `size`: `AutoQualitySearch.bySize` aiming at 80 % of the fixed encode's bytes, qualities 10…80 (AVIF 10…65);
/// - `dssim`: `AutoQualitySearch.byDSSIM` with imgproxy's defaults (0.02 ± 0.002, 70…80, AVIF 60…65).
/// The searches get the closures `ImageProcessor+Encode` gives them, written out here because they are private to
/// the processor: encode the still at a quality; decode a candidate as written (`colorSpace: .preserve`) and take
/// its ``DSSIM`` to the pixels encoded. Each method is charged process CPU time (every encode, decode and DSSIM of
/// a search), in ``repetitions`` passes over every image after an untimed pass, the methods' order rotating from
/// image to image and pass to pass; CPU figures are ranges over the passes, never one pass alone.
enum AutoQualityBenchmark {
    static let photos = ["webp/bryce.webp", "avif/Summer_in_Tomsk_720p_5x4_grid.avif", "heif/arrow.heic",
                         "avif/free_property.avif", "avif/Chimera_10bit_cropped_to_1920x1008.avif",
                         "avif/Ronda_rotate90.avif", "avif/abandoned_filmgrain.avif", "avif/fruits_2layer_thumbsize.avif",
                         "avif/kids_720p.avif", "avif/fox.profile1.10bpc.yuv444.avif", "avif/kimono.rotate90.avif",
                         "avif/Irvine_CA.avif"]
    static let widths = [800, 300]
    static let formats: [ImageFormat] = [.jpeg, .webp, .avif]
    static let repetitions = 5
    /// The `size` method's target: this share of the fixed quality's bytes.
    static let sizeShare = 0.8

    enum Method: Int, CaseIterable {
        case fixed, size, dssim
    }

    /// What one method chose for one image: its quality, bytes, encodes and the DSSIM of its result; and the CPU
    /// seconds its measures (decode + DSSIM) took.
    struct Choice {
        var quality: Int
        var bytes: Int
        var encodes: Int
        var dssim: Double
        var measureCPU = 0.0
    }

    /// One photo at one width in one format, and what the service's encode path does with it.
    struct Job {
        var photo: String
        var width: Int
        var format: ImageFormat
        var image: Image
        let processing = ImageProxyConfiguration.Processing()

        var fixedQuality: Int { processing.formatQuality[format] ?? processing.defaultQuality }

        /// `ImageProcessor.encode`'s encode closure for a still with no background or byte limit.
        func encode(_ quality: Int) throws -> Data {
            try processing.coders.encode(image, as: format, options: ImageEncodeOptions(
                quality: Double(quality) / 100, firstFrameOnly: true, tuning: processing.encoderTuning))
        }

        /// `ImageProcessor.autoQualityEncode`'s measure closure (the photos are opaque: the reference is the
        /// pixels encoded).
        func measure(_ data: Data) throws -> Double {
            var options = ImageDecodeOptions()
            options.colorSpace = .preserve
            options.firstFrameOnly = true
            let decoded = try processing.coders.decode(data, options: options).pixels
            guard decoded.size == image.pixels.size else { throw AutoQualityBenchmarkError.wrongSize(format) }
            return try DSSIM.dissimilarity(image.pixels, decoded)
        }

        func run(_ method: Method, sizeTarget: Int) throws -> Choice {
            switch method {
            case .fixed:
                let data = try encode(fixedQuality)
                return Choice(quality: fixedQuality, bytes: data.count, encodes: 1, dssim: .nan)
            case .size:
                let found = try AutoQualitySearch.bySize(target: sizeTarget, range: range(.size, format),
                                                         encode: encode)
                return Choice(quality: found.quality, bytes: found.data.count, encodes: found.encodes, dssim: .nan)
            case .dssim:
                let settings = ImageProxyConfiguration.AutoQuality()
                var measureCPU = 0.0
                let found = try AutoQualitySearch.byDSSIM(target: settings.target, allowedError: settings.allowedError,
                                                          range: range(.dssim, format), encode: encode) { data in
                    let start = Measure.cpuTime(.process)
                    defer { measureCPU += Measure.cpuTime(.process) - start }
                    return try measure(data)
                }
                return Choice(quality: found.quality, bytes: found.data.count, encodes: found.encodes,
                              dssim: found.dssim, measureCPU: measureCPU)
            }
        }
    }

    /// The qualities `method` chooses from: imgproxy's defaults for `dssim`, from 10 instead of 70 for `size`.
    static func range(_ method: Method, _ format: ImageFormat) -> ClosedRange<Int> {
        var settings = ImageProxyConfiguration.AutoQuality()
        if method == .size {
            settings.minQuality = 10
            settings.formatMinQuality = [:]
        }
        return settings.range(for: format)
    }

    /// A job's outcome (the same in every pass: the encoders are deterministic) and, per pass, each method's CPU
    /// seconds and the `dssim` method's measures' share of them.
    struct Result {
        var job: Job
        var choices: [Choice]
        var cpu: [[Double]] = []
        var measureCPU: [Double] = []

        var sizeTarget: Int { Int(Double(choices[Method.fixed.rawValue].bytes) * sizeShare) }
    }

    static func run() throws {
        let jobs = try makeJobs()
        print("\(jobs.count / formats.count) images (\(photos.count) photos at \(widths) px wide, never enlarged), "
              + "\(repetitions) timed passes after an untimed one; load average before: \(loadAverage())")
        var results = try jobs.map(firstPass)
        for pass in 0..<repetitions {
            for index in results.indices { try timedPass(&results[index], firstMethod: index + pass) }
        }
        printDetails(results)
        printTable(results)
        try printDSSIMCost(results)
        print("load average after: \(loadAverage())")
    }

    /// The untimed pass: what each method chooses, and the DSSIM of the fixed and `size` results.
    private static func firstPass(_ job: Job) throws -> Result {
        var result = Result(job: job, choices: [try job.run(.fixed, sizeTarget: 0)])
        result.choices.append(try job.run(.size, sizeTarget: result.sizeTarget))
        result.choices.append(try job.run(.dssim, sizeTarget: 0))
        for method in [Method.fixed, .size] {
            let choice = result.choices[method.rawValue]
            result.choices[method.rawValue].dssim = try job.measure(job.encode(choice.quality))
        }
        return result
    }

    /// Each method once more, timed, starting with the `firstMethod`-th (modulo the methods).
    private static func timedPass(_ result: inout Result, firstMethod: Int) throws {
        var cpu = [Double](repeating: 0, count: Method.allCases.count)
        for step in 0..<Method.allCases.count {
            guard let method = Method(rawValue: (firstMethod + step) % Method.allCases.count) else { continue }
            let start = Measure.cpuTime(.process)
            let choice = try result.job.run(method, sizeTarget: result.sizeTarget)
            cpu[method.rawValue] = Measure.cpuTime(.process) - start
            if method == .dssim { result.measureCPU.append(choice.measureCPU) }
            guard choice.bytes == result.choices[method.rawValue].bytes else {
                throw AutoQualityBenchmarkError.notDeterministic(result.job.photo)
            }
        }
        result.cpu.append(cpu)
    }

    /// Each photo decoded, upright, as 8-bit sRGB, fitted to each width it is at least as wide as.
    static func makeJobs() throws -> [Job] {
        var jobs: [Job] = []
        for photo in photos {
            let decoded = try CodersManager.shared.decode(TestCorpus.data(photo), options: ImageDecodeOptions())
            guard !decoded.hasAlpha else { throw AutoQualityBenchmarkError.hasAlpha(photo) }
            let pixels = decoded.pixels.converted(to: .rgba8)
            for width in widths where width <= pixels.width {
                let height = max(1, Int((Double(pixels.height) * Double(width) / Double(pixels.width)).rounded()))
                let image = Image(pixels: Resampler.resample(pixels, to: PixelSize(width: width, height: height)),
                                  hasAlpha: false)
                let name = String(photo.split(separator: "/").last ?? "")
                jobs += formats.map { Job(photo: name, width: width, format: $0, image: image) }
            }
        }
        return jobs
    }

    private static func printDetails(_ results: [Result]) {
        print("photo".padding(toLength: 43, withPad: " ", startingAt: 0) + "size       format fixed: q, bytes, DSSIM | "
              + "size: q, bytes (vs fixed), DSSIM, encodes | dssim: q, bytes (vs fixed), DSSIM, encodes")
        for result in results {
            let job = result.job, fixed = result.choices[0], size = result.choices[1], dssim = result.choices[2]
            let change = { (choice: Choice) in 100 * (Double(choice.bytes) / Double(fixed.bytes) - 1) }
            print(job.photo.padding(toLength: 42, withPad: " ", startingAt: 0),
                  "\(job.image.pixels.width)x\(job.image.pixels.height)".padding(toLength: 10, withPad: " ", startingAt: 0),
                  job.format.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0),
                  String(format: "q%d %7d B %.4f | q%d %7d B (%+.1f %%) %.4f %d | q%d %7d B (%+.1f %%) %.4f %d",
                         fixed.quality, fixed.bytes, fixed.dssim, size.quality, size.bytes, change(size), size.dssim,
                         size.encodes,
                         dssim.quality, dssim.bytes, change(dssim), dssim.dssim, dssim.encodes))
        }
    }

    /// One row per format, width and method: ranges over the passes (CPU) and over the photos (the rest).
    private static func printTable(_ results: [Result]) {
        print("| format, width (images) | method | CPU per image, fixed → method | extra CPU per image (of which "
              + "decode + DSSIM) | × fixed | bytes vs fixed: all images (per image) | quality chosen (how many at the "
              + "range's ends) | encodes | DSSIM fixed → chosen |")
        print("|---|---|---|---|---|---|---|---|---|")
        for format in formats {
            for width in widths {
                let group = results.filter { $0.job.format == format && $0.job.width == width }
                guard !group.isEmpty else { continue }
                for method in [Method.size, .dssim] { print(row(group, method: method)) }
            }
        }
    }

    private static func row(_ group: [Result], method: Method) -> String {
        let m = method.rawValue, format = group[0].job.format, bounds = range(method, format)
        let perImage = { (seconds: (Result, Int) -> Double) in (0..<repetitions).map { pass in
            group.map { seconds($0, pass) }.reduce(0, +) / Double(group.count) * 1e3 } }
        let fixedCPU = perImage { $0.cpu[$1][0] }, methodCPU = perImage { $0.cpu[$1][m] }
        let extra = zip(methodCPU, fixedCPU).map { $0 - $1 }, times = zip(methodCPU, fixedCPU).map { $0 / $1 }
        let measures = method == .dssim ? " (\(span(perImage { $0.measureCPU[$1] }, "%.2f")) ms)" : ""
        let bytes = { (method: Int) in Double(group.map { $0.choices[method].bytes }.reduce(0, +)) }
        let perPhoto = group.map { 100 * (Double($0.choices[m].bytes) / Double($0.choices[0].bytes) - 1) }
        let qualities = group.map { $0.choices[m].quality }
        let count = { (quality: Int) in qualities.filter { $0 == quality }.count }
        let ends = "of \(bounds.lowerBound)…\(bounds.upperBound): \(count(bounds.upperBound)) top, "
            + "\(count(bounds.lowerBound)) bottom"
        return "| \(format.rawValue.uppercased()) \(group[0].job.width) px (\(group.count)) | \(method) | "
            + "\(span(fixedCPU, "%.2f")) → \(span(methodCPU, "%.2f")) ms | +\(span(extra, "%.2f")) ms\(measures) | "
            + "\(span(times, "%.1f"))× | " + String(format: "%+.1f %%", 100 * (bytes(m) / bytes(0) - 1))
            + " (\(span(perPhoto, "%+.1f", separator: "…")) %) | "
            + "\(span(qualities.map(Double.init), "%.0f")) (\(ends)) | "
            + "\(span(group.map { Double($0.choices[m].encodes) }, "%.0f")) | "
            + "\(span(group.map { $0.choices[0].dssim }, "%.4f")) → "
            + "\(span(group.map { $0.choices[m].dssim }, "%.4f")) |"
    }

    /// `DSSIM.dissimilarity` alone, per megapixel: each image against itself, once per pass, after one untimed run.
    private static func printDSSIMCost(_ results: [Result]) throws {
        for width in widths {
            let images = results.filter { $0.job.width == width && $0.job.format == formats[0] }.map(\.job.image.pixels)
            let megapixels = Double(images.map { $0.width * $0.height }.reduce(0, +)) / 1e6
            _ = try images.map { try DSSIM.dissimilarity($0, $0) }
            let perMegapixel = try (0..<repetitions).map { _ in
                let start = Measure.cpuTime(.process)
                for image in images { _ = try DSSIM.dissimilarity(image, image) }
                return (Measure.cpuTime(.process) - start) * 1e3 / megapixels
            }
            print("DSSIM alone, the \(images.count) images \(width) px wide: \(span(perMegapixel, "%.1f")) ms per megapixel")
        }
    }

    /// "low–high" in `format`, or one figure when both print alike.
    static func span(_ values: [Double], _ format: String, separator: String = "–") -> String {
        let low = String(format: format, values.min() ?? .nan), high = String(format: format, values.max() ?? .nan)
        return low == high ? low : low + separator + high
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
    }
}

enum AutoQualityBenchmarkError: Error {
    case hasAlpha(String)
    case wrongSize(ImageFormat)
    case notDeterministic(String)
}
