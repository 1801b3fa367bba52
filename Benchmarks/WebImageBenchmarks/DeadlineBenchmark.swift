import Foundation
import TestSupport
import WebImage
import WebImageServer

/// `webimage serve` on one worker after a burst of slow sources, each far past a short processing timeout:
/// how long until a cheap request queued behind them is served, with the work cancelled at the timeout (now)
/// and running on to its end (before: the cancellation ignored).
enum DeadlineBenchmark {
    enum Failure: Error { case status(Int) }

    static let burst = 3, rounds = 3, timeoutMilliseconds = 300
    /// A 49 MP PNG (zero pixels: a few hundred kilobytes) shrunk to 16 MP, blurred, sharpened and pixelated.
    static let slowOptions = "bl:80/sh:40/pix:3/f:webp"

    static func run() throws {
        try Measure.waitFor { try await runAsync() }
        try PollingCostBenchmark.run()
    }

    private static func runAsync() async throws {
        let origin = try await TestHTTPServer.start()
        origin.route("/huge.png", TestResponse(headers: [("Content-Type", "image/png")],
                                               body: LargeImages.png(width: 7000, height: 7000, alpha: true)))
        let small = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30)), as: .jpeg,
                                                    options: ImageEncodeOptions(quality: 0.8))
        origin.route("/small.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: small))
        var results: [(cancels: Bool, seconds: [Double])] = [(false, []), (true, [])]
        for round in 0..<rounds {
            for side in results.indices {
                results[side].seconds.append(try await untilServed(origin: origin, cancels: results[side].cancels,
                                                                  round: round))
            }
        }
        WorkerThreads.cancelsWorkPastLimit.store(true, ordering: .relaxed)
        try await origin.shutdown()
        for (cancels, seconds) in results {
            print(String(format: "%d slow sources (%@, timeout %d ms) then a cheap one, 1 worker: cheap served after "
                         + "%.2f–%.2f s (%@)", burst, slowOptions, timeoutMilliseconds,
                         seconds.min() ?? .nan, seconds.max() ?? .nan,
                         cancels ? "work cancelled at the timeout" : "before: work runs to its end"))
        }
    }

    /// Seconds from the burst until the cheap request is answered 200 (the slow ones must all answer 503).
    private static func untilServed(origin: TestHTTPServer, cancels: Bool, round: Int) async throws -> Double {
        WorkerThreads.cancelsWorkPastLimit.store(cancels, ordering: .relaxed)
        let configuration = ImageProxyConfiguration(
            signing: .init(allowsUnsigned: true), sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true)),
            timeouts: .init(download: .seconds(600), downloadIdle: .seconds(600),
                            processing: .milliseconds(timeoutMilliseconds)),
            concurrency: .init(workers: 1, queueSize: burst + 1))
        let proxy = ImageProxy(configuration: configuration)
        func path(_ options: String, _ source: String) -> String {
            let url = origin.url(source).absoluteString
            return "/_/\(options)/plain/" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
        }
        let start = ContinuousClock.now
        let slow = (0..<burst).map { index in
            Task { await proxy.image(ProxyRequest(target: path(slowOptions, "/huge.png?r=\(round)&i=\(index)"))).status }
        }
        // Queued behind the burst, as a client arriving a moment later would be; asked again while it answers 503
        // (each try's deadline counts from its own arrival: one queued behind work that runs on expires there).
        try await Task.sleep(for: .milliseconds(50))
        let cheapPath = path("w:20/cb:\(cancels)\(round)", "/small.jpg")
        var cheap = await proxy.image(ProxyRequest(target: cheapPath))
        while cheap.status == 503 { cheap = await proxy.image(ProxyRequest(target: cheapPath)) }
        let seconds = Self.seconds(ContinuousClock.now - start)
        for task in slow {
            let status = await task.value
            if status != 503 { throw Failure.status(status) }
        }
        guard cheap.status == 200 else { throw Failure.status(cheap.status) }
        await proxy.shutdown()
        return seconds
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
