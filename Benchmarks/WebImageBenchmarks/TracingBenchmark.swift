import Foundation
import Synchronization
import Tracing
import WebImage
import WebImageServer

/// What spans would cost with no tracer bootstrapped (swift-distributed-tracing's no-op tracer: `webimage serve`
/// without `--tracing`) if the service made them through the global tracer (started, bound as the current context,
/// attributes skipped because the span does not record, ended), beside a memory-hit image request through
/// `ImageProxy.image` (the service's cheapest answer: where spans would weigh most). The service reads the tracer
/// once when the proxy is made and, under the no-op tracer, makes no span at all. Best of 5.
enum TracingBenchmark {
    static func run() throws {
        let count = 1_000_000
        let perSpan = Measure.best {
            for _ in 0..<count {
                let span = startSpan("webimage.signature")
                InstrumentationContext.withValue(span.context) {
                    if span.isRecording { span.attributes["webimage.cache.hit"] = true }
                }
                span.end()
            }
        } / Double(count)
        print(String(format: "a span through the global no-op tracer (start, bind, end): %.1f ns; the service skips "
                     + "all of it when the tracer is the no-op one", perSpan * 1e9))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracing-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = Image(pixels: PhotoRaster.make(width: 640, height: 480), hasAlpha: false)
        try CodersManager.shared.encode(photo, as: .jpeg, options: ImageEncodeOptions(quality: 0.85))
            .write(to: directory.appendingPathComponent("photo.jpg"))
        let pair = URLSigner.KeyPair(keyHex: "736563726574", saltHex: "68656C6C6F")!
        var configuration = ImageProxyConfiguration(signing: .init(keyPairs: [pair]))
        configuration.sources.localRoot = directory
        let proxy = ImageProxy(configuration: configuration)
        let request = ProxyRequest(target: URLSigner(keyPairs: [pair]).sign("/rs:fit:320:240/plain/local:///photo.jpg@webp"))
        let requests = 20_000
        let elapsed = Mutex(Double.infinity)
        try Measure.waitFor {
            guard await proxy.image(request).status == 200 else { throw DeadlineBenchmark.Failure.status(0) }
            for _ in 0..<5 {
                let start = ContinuousClock.now
                for _ in 0..<requests { _ = await proxy.image(request) }
                let time = (ContinuousClock.now - start) / requests
                let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
                elapsed.withLock { $0 = min($0, seconds) }
            }
            await proxy.shutdown()
        }
        let hit = elapsed.withLock { $0 }
        print(String(format: "memory-hit request (ImageProxy.image), no tracer: %.2f µs (3 spans through the global "
                     + "tracer would add %.2f µs = %.1f %%)", hit * 1e6, 3 * perSpan * 1e6, 3 * perSpan / hit * 100))
    }
}
