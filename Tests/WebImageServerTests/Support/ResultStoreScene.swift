import Foundation
import MetricsTestKit
import S3TestSupport
import Synchronization
import TestSupport
import Testing
import WebImage
@testable import WebImageServer

/// Proxies in one process in front of one loopback origin, each with its own disk cache and metrics and no Redis
/// unless a test gives one, sharing a result store: a real `moto_server`, or any server a test points them at.
final class ResultStoreScene: Sendable {
    static let bucket = "results", prefix = "thumbs"

    let origin: TestHTTPServer
    let moto: MotoServer
    private let instances = Mutex<[ResultStoreInstance]>([])
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("result-store-\(UUID().uuidString)")

    private init(origin: TestHTTPServer, moto: MotoServer) {
        self.origin = origin
        self.moto = moto
    }

    /// Runs `body` with a `moto_server` holding an empty bucket and an origin serving `images` small JPEGs at
    /// `/img<N>.jpg`, and always tears everything down.
    static func with(images: Int = 4, _ body: (ResultStoreScene) async throws -> Void) async throws {
        let moto = try await MotoServer.start(bucket: bucket, objects: [:])
        let origin: TestHTTPServer
        do {
            origin = try await TestHTTPServer.start()
        } catch {
            moto.stop()
            throw error
        }
        try origin.serveSceneImages(images)
        let scene = ResultStoreScene(origin: origin, moto: moto)
        do {
            try await body(scene)
        } catch {
            await scene.stop()
            throw error
        }
        await scene.stop()
    }

    /// The moto store, with the key it made.
    var motoStore: ImageProxyConfiguration.S3 {
        .init(endpoint: moto.endpoint, credentials: .init(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey))
    }

    /// A proxy with a disk cache of its own and the result store in `store` (default the moto one). The deadline
    /// is long by default: moto is slow on a loaded machine, and only the tests of a failing store want it short.
    func instance(store: ImageProxyConfiguration.S3? = nil, deadline: Duration = .seconds(10),
                  result adjustStore: (inout ResultStoreConfiguration) -> Void = { _ in },
                  proxy adjustProxy: (inout ImageProxyConfiguration) -> Void = { _ in }) async throws -> ResultStoreInstance {
        let metrics = TestMetrics()
        var resultStore = ResultStoreConfiguration(store: store ?? motoStore, bucket: Self.bucket, prefix: Self.prefix,
                                                   deadline: deadline)
        adjustStore(&resultStore)
        let directory = root.appendingPathComponent("\(instances.withLock { $0.count })")
        let configuration = ProxyHarness.configuration {
            $0.caches.directory = directory
            $0.caches.resultStore = resultStore
            $0.instrumentation = Instrumentation(label: "SwiftWebImage.ImageProxy", metricsFactory: metrics)
            adjustProxy(&$0)
        }
        let instance = ResultStoreInstance(harness: try await ProxyHarness.start(configuration, origin: origin),
                                           metrics: metrics)
        instances.withLock { $0.append(instance) }
        return instance
    }

    /// Requests the origin received for image `index`.
    func originRequests(_ index: Int) -> Int { origin.requestCount(for: "/img\(index).jpg") }

    private func stop() async {
        for instance in instances.withLock({ $0 }) { await instance.harness.stop() }
        moto.stop()
        try? await origin.shutdown()
        try? FileManager.default.removeItem(at: root)
    }
}

/// One proxy of a ``ResultStoreScene`` and its metrics.
struct ResultStoreInstance: Sendable {
    let harness: ProxyHarness
    let metrics: TestMetrics

    var proxy: ImageProxy { harness.proxy }

    /// The signed path of image `index`, 20 px wide.
    func path(_ index: Int) -> String { harness.signedPath("w:20", source: "/img\(index).jpg") }

    func get(_ index: Int) async throws -> ProxyHarness.Answer { try await harness.get(path(index)) }

    /// A result-store counter (with `reason`), 0 when it was never made.
    func count(_ label: String, reason: String? = nil) -> Int64 {
        var dimensions = [(ResultStoreMetrics.Dimension.tier, "s3")]
        if let reason { dimensions.append((ResultStoreMetrics.Dimension.reason, reason)) }
        return (try? metrics.expectCounter(label, dimensions).totalValue) ?? 0
    }

    /// The availability gauge's last value.
    var available: Double? {
        try? metrics.expectGauge(ResultStoreMetrics.available, [(ResultStoreMetrics.Dimension.tier, "s3")]).lastValue
    }

    /// Waits until `count` background writes have landed.
    func writesLanded(_ count: Int64) async -> Bool {
        await eventually(timeout: 30) { self.count(ResultStoreMetrics.writes) == count }
    }

    /// The object that holds image `index`'s result.
    func objectName(_ index: Int) throws -> String {
        let job = try proxy.job(for: Substring(path(index)), accept: nil)
        return try #require(proxy.results.store).objectName(forKey: job.key)
    }
}
