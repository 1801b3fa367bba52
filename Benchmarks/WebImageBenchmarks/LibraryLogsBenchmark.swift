import Foundation
import Synchronization
import TestSupport
import WebImage
import WebImageServer

/// What capturing standard error (``LibraryLogs``, as `webimage` and its service install it) costs work that
/// prints nothing: a JPEG XL decode, and a service request that decodes and encodes (a new result each time). Each
/// is timed without and with the capture in alternate rounds, the capture installed and ended between them;
/// process CPU time (the capture's thread included), medians of 11 rounds; ratio = with ÷ without.
enum LibraryLogsBenchmark {
    static func run() throws {
        let jxl = try TestCorpus.data("jxl/grayscale_public_university.jxl")
        let decodes = compare { for _ in 0..<10 { _ = try? CodersManager.shared.decode(jxl, options: ImageDecodeOptions()) } }
        print(decodes.row("10 JPEG XL decodes (2880x1620, nothing printed)"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-logs-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestCorpus.data("jxl/patches.jxl").write(to: directory.appendingPathComponent("photo.jxl"))
        var configuration = ImageProxyConfiguration(signing: .init(allowsUnsigned: true))
        configuration.sources.localRoot = directory
        let proxy = ImageProxy(configuration: configuration)
        let width = Atomic(100)
        let requests = compare {
            try? Measure.waitFor {
                for _ in 0..<10 {
                    let request = ProxyRequest(target: "/_/rs:fit:\(width.add(1, ordering: .relaxed).newValue):0/plain/local:///photo.jxl@webp")
                    guard await proxy.image(request).status == 200 else { throw DeadlineBenchmark.Failure.status(0) }
                }
            }
        }
        print(requests.row("10 service requests (1600x1096 JPEG XL to WebP)"))
        try Measure.waitFor { await proxy.shutdown() }
    }

    /// Both sides' process CPU seconds per round, and the rounds' ratios.
    struct Result {
        var without: [Double] = []
        var with: [Double] = []
        var ratios: [Double] = []

        func row(_ name: String) -> String {
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            return "\(name.padding(toLength: 52, withPad: " ", startingAt: 0)) "
                + String(format: "without %8.2f ms   with capture %8.2f ms   ratio %.3f× (rounds %.3f–%.3f)",
                         median(without) * 1e3, median(with) * 1e3, median(ratios), ratios.min() ?? .nan, ratios.max() ?? .nan)
        }
    }

    /// `body` timed `rounds` times each way after a warm-up, which side first alternating.
    private static func compare(rounds: Int = 11, _ body: () -> Void) -> Result {
        body()
        var result = Result()
        for round in 0..<rounds {
            var pair = (without: 0.0, with: 0.0)
            for captured in round.isMultiple(of: 2) ? [false, true] : [true, false] {
                if captured { try? LibraryLogs.install() }
                let start = Measure.cpuTime(.process)
                body()
                let elapsed = Measure.cpuTime(.process) - start
                if captured { pair.with = elapsed } else { pair.without = elapsed }
                LibraryLogs.finish()
            }
            result.without.append(pair.without)
            result.with.append(pair.with)
            result.ratios.append(pair.with / pair.without)
        }
        return result
    }
}
