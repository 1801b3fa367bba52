import Foundation
import MetricsTestKit
import RedisTestSupport
import Synchronization
import TestSupport
import WebImage
import WebImageRedis
@testable import WebImageServer

/// Proxies in one process in front of one loopback origin, sharing real `redis-server`s; each proxy makes its
/// metrics with its own `TestMetrics`, so what each instance did can be read apart.
final class SharedTierScene: Sendable {
    let origin: TestHTTPServer
    let redis: Mutex<[RedisServerProcess]>
    private let instances = Mutex<[SharedTierInstance]>([])

    private init(origin: TestHTTPServer, redis: [RedisServerProcess]) {
        self.origin = origin
        self.redis = Mutex(redis)
    }

    /// Runs `body` with `servers` Redis servers and an origin serving `images` small JPEGs at `/img<N>.jpg`,
    /// and always tears everything down.
    static func with(servers: Int = 1, images: Int = 8, _ body: (SharedTierScene) async throws -> Void) async throws {
        let origin = try await TestHTTPServer.start()
        var redis: [RedisServerProcess] = []
        for _ in 0..<servers { redis.append(try await RedisServerProcess.start()) }
        try origin.serveSceneImages(images)
        let scene = SharedTierScene(origin: origin, redis: redis)
        do {
            try await body(scene)
        } catch {
            await scene.stop()
            throw error
        }
        await scene.stop()
    }

    var endpoints: [RedisEndpoint] { redis.withLock { $0.map(\.endpoint) } }

    /// A proxy using `endpoints` (default every server of the scene) as its shared tier.
    func instance(endpoints: [RedisEndpoint]? = nil, deadline: Duration = .seconds(1),
                  shared adjustShared: (inout SharedCacheConfiguration) -> Void = { _ in },
                  proxy adjustProxy: (inout ImageProxyConfiguration) -> Void = { _ in }) async throws -> SharedTierInstance {
        let metrics = TestMetrics()
        var shared = SharedCacheConfiguration(endpoints: endpoints ?? self.endpoints,
                                              redis: .init(client: .init(deadline: deadline)),
                                              instrumentation: Instrumentation(label: "SwiftWebImage.SharedCache",
                                                                               metricsFactory: metrics))
        adjustShared(&shared)
        let configuration = ProxyHarness.configuration {
            $0.caches.shared = shared
            adjustProxy(&$0)
        }
        let instance = SharedTierInstance(harness: try await ProxyHarness.start(configuration, origin: origin),
                                          metrics: metrics)
        instances.withLock { $0.append(instance) }
        return instance
    }

    /// Requests the origin received for image `index`.
    func originRequests(_ index: Int) -> Int { origin.requestCount(for: "/img\(index).jpg") }

    private func stop() async {
        for instance in instances.withLock({ $0 }) { await instance.harness.stop() }
        redis.withLock { $0.forEach { $0.stop() } }
        try? await origin.shutdown()
    }
}

/// One proxy of a ``SharedTierScene`` and its metrics.
struct SharedTierInstance: Sendable {
    let harness: ProxyHarness
    let metrics: TestMetrics

    var proxy: ImageProxy { harness.proxy }

    /// The signed path of image `index`, 20 px wide.
    func path(_ index: Int) -> String { harness.signedPath("w:20", source: "/img\(index).jpg") }

    func get(_ index: Int) async throws -> ProxyHarness.Answer { try await harness.get(path(index)) }

    /// A shared-tier counter of `kind` (and `reason`), 0 when it was never made.
    func count(_ label: String, _ kind: SharedTier.Kind, reason: String? = nil) -> Int64 {
        var dimensions = [(SharedCacheMetrics.Dimension.kind, kind.rawValue)]
        if let reason { dimensions.append((SharedCacheMetrics.Dimension.reason, reason)) }
        return (try? metrics.expectCounter(label, dimensions).totalValue) ?? 0
    }

    /// The availability gauge's last value.
    var available: Double? { try? metrics.expectGauge(SharedCacheMetrics.available).lastValue }

    /// Waits until the background writes of `results` results and `sources` sources have landed.
    func writesLanded(results: Int64, sources: Int64) async -> Bool {
        await eventually(timeout: 20) {
            count(SharedCacheMetrics.writes, .result) == results && count(SharedCacheMetrics.writes, .source) == sources
        }
    }

    /// The result and source keys of image `index`'s path, as the proxy caches them.
    func keys(_ index: Int) throws -> (result: String, source: String) {
        let job = try proxy.job(for: Substring(path(index)), accept: nil)
        return (job.key, job.source.absoluteString)
    }

    /// The Redis server the shared tier puts `key` of `kind` on.
    func node(_ kind: SharedTier.Kind, _ key: String) -> String? {
        proxy.results.shared?.cache.nodeName(forKey: kind.keyPrefix + key)
    }
}

extension TestHTTPServer {
    /// Routes `count` small JPEGs at `/img<N>.jpg` (40 + N by 30 pixels): the images the shared-tier and
    /// result-store scenes ask for.
    func serveSceneImages(_ count: Int) throws {
        for index in 0..<count {
            route("/img\(index).jpg", TestResponse(headers: [("Content-Type", "image/jpeg")],
                                                  body: try Fixtures.jpeg(40 + index, 30)))
        }
    }
}
