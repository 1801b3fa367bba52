import Foundation
import WebImage
import WebImageServer

/// What imgproxy Pro's `best` format costs and saves beside one fixed WebP and one fixed JPEG encode
/// (`webimage-benchmarks best-format`), on the autoquality benchmark's photos and sizes
/// (``AutoQualityBenchmark/makeJobs()``) and one flat drawing (two colours in 100 px blocks, 800 × 600). `best` is
/// the service's own `ImageProcessor.encodeBest` (reached through `ImageProxy.processor`) with the candidates
/// `FormatChoice.best` makes for a client accepting WebP and AVIF under the default configuration (the preferred
/// JPEG, PNG and GIF, then WebP and AVIF; written out here, as `FormatChoice` is internal): JPEG, WebP and AVIF for
/// every image, and before them PNG and lossless WebP below the complexity threshold. The fixed encodes are the
/// service's default qualities and encoder settings (JPEG 80, WebP 79, AVIF 63, WebP method 4, AVIF speed 10);
/// the untimed pass encodes every candidate so and checks that `best` answered the smallest, byte for byte. Process
/// CPU time per image in ``repetitions`` passes after the untimed one, the methods' order rotating from image to
/// image and pass to pass; CPU figures are ranges over the passes, never one pass alone.
enum BestFormatBenchmark {
    /// The modern formats the client lists (`Accept: image/avif,image/webp`).
    static let accepted: [ImageFormat] = [.webp, .avif]
    static let repetitions = 5
    static let drawingGroup = "drawing"

    enum Method: Int, CaseIterable {
        case jpeg, webp, best, complexity
    }

    /// One way `best` writes an image, as `ImageProcessor.BestCandidate` (internal) does.
    struct Candidate: Equatable {
        var format: ImageFormat
        var lossless = false

        /// The key of its bytes in ``Result/bytes``: the format, "webp lossless" for lossless WebP.
        var key: String { format.rawValue + (lossless && format == .webp ? " lossless" : "") }
        var label: String { (lossless && format == .webp ? "lossless " : "") + format.rawValue.uppercased() }
    }

    /// `encodeBest`'s order (GIF is for animations only), the first among equals winning.
    static let lossyCandidates = [ImageFormat.jpeg, .webp, .avif].map { Candidate(format: $0) }
    static let losslessCandidates = [Candidate(format: .png, lossless: true), Candidate(format: .webp, lossless: true)]

    struct Subject {
        var name: String
        var group: String
        var image: Image
    }

    /// A subject's outcome (the same in every pass: the encoders are deterministic) and each method's CPU seconds
    /// per pass.
    struct Result {
        var subject: Subject
        var complexity: Double
        /// Below the complexity threshold: PNG and lossless WebP tried before the lossy formats.
        var simple: Bool
        /// Each candidate encoded as `best` encodes it (by ``Candidate/key``); the lossy JPEG and WebP among them are
        /// the fixed methods' encodes.
        var bytes: [String: Int]
        var best: (candidate: Candidate, bytes: Int)
        var cpu: [[Double]] = []

        var label: String { subject.name + " " + "\(subject.image.pixels.width)x\(subject.image.pixels.height)" }
        func change(against key: String) -> Double { 100 * (Double(best.bytes) / Double(bytes[key] ?? 0) - 1) }
    }

    static func run() throws {
        let configuration = ImageProxyConfiguration()
        let proxy = ImageProxy(configuration: configuration)
        defer { try? Measure.waitFor { await proxy.shutdown() } }
        let candidates = (configuration.responses.preferredFormats + accepted).reduce(into: [ImageFormat]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        let threshold = configuration.processing.bestFormat.complexityThreshold
        let subjects = try makeSubjects()
        print("\(subjects.count) images, candidates \(candidates.map(\.rawValue)), complexity threshold \(threshold), "
              + "\(repetitions) timed passes after an untimed one; load average before: "
              + AutoQualityBenchmark.loadAverage())
        var results = try subjects.map { try firstPass($0, proxy.processor, candidates: candidates, threshold: threshold) }
        for pass in 0..<repetitions {
            for index in results.indices {
                try timedPass(&results[index], proxy.processor, candidates: candidates, firstMethod: index + pass)
            }
        }
        printDetails(results)
        printTable(results, threshold: threshold)
        print("load average after: \(AutoQualityBenchmark.loadAverage())")
    }

    /// The autoquality benchmark's images (one per photo and width), then the drawing.
    private static func makeSubjects() throws -> [Subject] {
        let photos = try AutoQualityBenchmark.makeJobs().filter { $0.format == AutoQualityBenchmark.formats[0] }.map {
            Subject(name: $0.photo, group: "\($0.width) px", image: $0.image)
        }
        let width = 800, height = 600, colours: [[UInt8]] = [[31, 58, 147, 255], [245, 176, 65, 255]]
        let pixels = PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let colour = colours[(x / 100 + y / 100) % 2], i = (y * width + x) * 4
                    for channel in 0..<4 { out[i + channel] = colour[channel] }
                }
            }
        }
        return photos + [Subject(name: "two colours in 100 px blocks", group: drawingGroup,
                                 image: Image(pixels: pixels, hasAlpha: false))]
    }

    /// One encode at the service's default quality for `format` with its encoder settings (WebP lossless when
    /// `lossless`, as `best` writes it for a simple result).
    private static func fixedEncode(_ image: Image, as format: ImageFormat, lossless: Bool = false) throws -> Data {
        let processing = ImageProxyConfiguration.Processing()
        var tuning = processing.encoderTuning
        if lossless { tuning.webpCompression = .lossless }
        let quality = processing.formatQuality[format] ?? processing.defaultQuality
        return try processing.coders.encode(image, as: format, options: ImageEncodeOptions(
            quality: Double(quality) / 100, firstFrameOnly: true, tuning: tuning))
    }

    /// The untimed pass: every candidate encoded, and `best` checked to answer the smallest (the first among equals).
    private static func firstPass(_ subject: Subject, _ processor: ImageProcessor, candidates: [ImageFormat],
                                  threshold: Double) throws -> Result {
        let complexity = ImageProcessor.complexity(of: subject.image.pixels), simple = complexity < threshold
        var bytes: [String: Int] = [:]
        for format in [ImageFormat.jpeg, .webp] { bytes[format.rawValue] = try fixedEncode(subject.image, as: format).count }
        var smallest: (candidate: Candidate, bytes: Int)?
        let tried = ((simple ? losslessCandidates : []) + lossyCandidates).filter { candidates.contains($0.format) }
        for candidate in tried {
            let count = try bytes[candidate.key]
                ?? fixedEncode(subject.image, as: candidate.format, lossless: candidate.lossless).count
            bytes[candidate.key] = count
            if count < smallest?.bytes ?? .max { smallest = (candidate, count) }
        }
        let best = try processor.encodeBest(subject.image, candidates: candidates, options: ProcessingOptions())
        guard let smallest, smallest.candidate.format == best.format, smallest.bytes == best.data.count else {
            throw BestFormatBenchmarkError.notTheSmallest(subject.name, best.format, best.data.count)
        }
        return Result(subject: subject, complexity: complexity, simple: simple, bytes: bytes, best: smallest)
    }

    /// Each method once more, timed, starting with the `firstMethod`-th (modulo the methods).
    private static func timedPass(_ result: inout Result, _ processor: ImageProcessor, candidates: [ImageFormat],
                                  firstMethod: Int) throws {
        let image = result.subject.image
        var cpu = [Double](repeating: 0, count: Method.allCases.count)
        for step in 0..<Method.allCases.count {
            guard let method = Method(rawValue: (firstMethod + step) % Method.allCases.count) else { continue }
            let start = Measure.cpuTime(.process)
            let count: Int, expected: Int?
            switch method {
            case .jpeg: (count, expected) = (try fixedEncode(image, as: .jpeg).count, result.bytes["jpeg"])
            case .webp: (count, expected) = (try fixedEncode(image, as: .webp).count, result.bytes["webp"])
            case .best:
                count = try processor.encodeBest(image, candidates: candidates, options: ProcessingOptions()).data.count
                expected = result.best.bytes
            case .complexity:
                // The complexity is not a byte count: the same figure in every pass.
                (count, expected) = (Int(ImageProcessor.complexity(of: image.pixels) * 1e6), Int(result.complexity * 1e6))
            }
            cpu[method.rawValue] = Measure.cpuTime(.process) - start
            guard count == expected else { throw BestFormatBenchmarkError.notDeterministic(result.subject.name) }
        }
        result.cpu.append(cpu)
    }

    private static func printDetails(_ results: [Result]) {
        print("image".padding(toLength: 52, withPad: " ", startingAt: 0)
              + "complexity | candidates' bytes | best: format, bytes, vs JPEG, vs WebP")
        for result in results {
            let candidates = result.bytes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print(result.label.padding(toLength: 51, withPad: " ", startingAt: 0),
                  String(format: "%5.2f | %@ | %@ %d B, %+.1f %%, %+.1f %%", result.complexity, candidates,
                         result.best.candidate.label, result.best.bytes, result.change(against: "jpeg"),
                         result.change(against: "webp")))
        }
    }

    /// One row per group (the photos at each width under and over the complexity threshold, then all of them; the
    /// drawing): CPU ranges over the passes, the rest over the images.
    private static func printTable(_ results: [Result], threshold: Double) {
        print("| images | complexity vs \(threshold) | complexity | CPU per image: JPEG · WebP → best (of it complexity) "
              + "| best × JPEG · × WebP "
              + "| bytes best vs JPEG: all (per image) | bytes best vs WebP: all (per image) | format chosen |")
        print("|---|---|---|---|---|---|---|---|")
        for name in AutoQualityBenchmark.widths.map({ "\($0) px" }) + [drawingGroup] {
            let all = results.filter { $0.subject.group == name }
            let ways = [all.filter { !$0.simple }, all.filter(\.simple)].filter { !$0.isEmpty }
            for group in ways + (ways.count > 1 ? [all] : []) { print(row(group, name: name)) }
        }
    }

    private static func row(_ group: [Result], name: String) -> String {
        func span(_ values: [Double], _ format: String, _ separator: String = "–") -> String {
            AutoQualityBenchmark.span(values, format, separator: separator)
        }
        /// Three significant figures or so, as the autoquality table prints them.
        func figures(_ values: [Double]) -> String {
            let top = values.max() ?? 0
            return span(values, top < 10 ? "%.2f" : top < 100 ? "%.1f" : "%.0f")
        }
        let perImage = { (method: Method) in (0..<repetitions).map { pass in
            group.map { $0.cpu[pass][method.rawValue] }.reduce(0, +) / Double(group.count) * 1e3 } }
        let jpeg = perImage(.jpeg), webp = perImage(.webp), best = perImage(.best)
        let total = { (key: String) in Double(group.map { $0.bytes[key] ?? 0 }.reduce(0, +)) }
        let bestTotal = Double(group.map(\.best.bytes).reduce(0, +))
        let against = { (key: String) in
            String(format: "%+.1f %%", 100 * (bestTotal / total(key) - 1)) + " ("
                + span(group.map { $0.change(against: key) }, "%+.1f", " … ") + " %)"
        }
        let formats = Dictionary(grouping: group) { $0.best.candidate.label }
            .map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
        let ways = Set(group.map(\.simple))
        let way = ways.count > 1 ? "all" : ways.contains(true) ? "under (lossless tried too)" : "over"
        return "| \(name) (\(group.count)) | \(way) | "
            + "\(span(group.map(\.complexity), "%.2f")) | \(figures(jpeg)) · \(figures(webp)) → \(figures(best)) ms "
            + "(\(figures(perImage(.complexity))) ms) | \(figures(zip(best, jpeg).map { $0 / $1 }))× · "
            + "\(figures(zip(best, webp).map { $0 / $1 }))× | \(against("jpeg")) | \(against("webp")) | \(formats) |"
    }
}

enum BestFormatBenchmarkError: Error {
    case notTheSmallest(String, ImageFormat, Int)
    case notDeterministic(String)
}
