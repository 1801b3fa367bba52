import Foundation
import Synchronization

/// `GET /operator/stats`: every number the page shows, at one moment, with the history samples the page has
/// not seen yet.
struct OperatorSnapshot: Encodable {
    /// Totals since the service started.
    struct Counters: Encodable {
        /// Image and info requests answered, by status.
        var requests: [String: Int]
        var memoryHits: Int
        var diskHits: Int
        var misses: Int
        var coalesced: Int
        var encodes: Int
        var sourceDownloads: Int
        var sourceCacheHits: Int
        var sourceBytes: Int
        var rejected: Int
        var corruptCacheValues: Int
    }

    /// Values now.
    struct Gauges: Encodable {
        var inFlight: Int
        var queued: Int
        var running: Int
        var workers: Int
        var queueLimit: Int
        var resultsInProgress: Int
        var ready: Bool
    }

    /// What the URL builder can do, and where its URLs point.
    struct Builder: Encodable {
        /// The builder signs with the service's key.
        var signs: Bool
        /// The service has a key (whether or not the builder may use it).
        var keyed: Bool
        /// The service accepts unsigned URLs.
        var acceptsUnsigned: Bool
        /// The image service's base URL; nil: the page's host with ``imagePort``.
        var imageBase: String?
        var imagePort: Int
    }

    var time: Double
    var sampleInterval: Double
    var historyLength: Int
    var counters: Counters
    var gauges: Gauges
    var history: [OperatorHistory.Sample]
    var slowest: [RecentRequests.Entry]
    var builder: Builder

    init(proxy: ImageProxy, page: OperatorPage, history: OperatorHistory, after sequence: Int, image: ImageListener) {
        let statistics = proxy.statistics.snapshot
        let configuration = proxy.configuration
        let load = proxy.limiter.load
        time = Date().timeIntervalSince1970
        sampleInterval = Double(page.sampleInterval.components.seconds)
            + Double(page.sampleInterval.components.attoseconds) / 1e18
        historyLength = history.capacity
        counters = Counters(
            requests: Dictionary(uniqueKeysWithValues: proxy.recentRequests.statuses.map { (String($0.key), $0.value) }),
            memoryHits: statistics.memoryHits, diskHits: statistics.diskHits, misses: statistics.misses,
            coalesced: statistics.coalesced, encodes: statistics.encodes, sourceDownloads: statistics.sourceDownloads,
            sourceCacheHits: statistics.sourceCacheHits, sourceBytes: statistics.sourceBytes, rejected: statistics.rejected,
            corruptCacheValues: statistics.corruptDiskValues + statistics.corruptSharedValues
                + statistics.corruptStoreValues)
        gauges = Gauges(inFlight: proxy.recentRequests.inFlight, queued: load.queued, running: load.running,
                        workers: configuration.concurrency.workers, queueLimit: configuration.concurrency.queueSize,
                        resultsInProgress: proxy.resultsInProgress, ready: proxy.isReady)
        self.history = history.samples(after: sequence)
        slowest = proxy.recentRequests.slowest
        builder = Builder(signs: page.signsURLs && !configuration.signing.keyPairs.isEmpty,
                          keyed: !configuration.signing.keyPairs.isEmpty,
                          acceptsUnsigned: configuration.signing.allowsUnsigned,
                          imageBase: image.base(publicBaseURL: page.publicBaseURL), imagePort: image.port)
    }
}

/// The image listener as the page links to it: its host, and its port once it listens (port 0 picks one).
final class ImageListener: Sendable {
    let host: String
    private let listeningPort: Atomic<Int>

    init(host: String, port: Int) {
        self.host = host
        listeningPort = Atomic(port)
    }

    var port: Int { listeningPort.load(ordering: .relaxed) }

    /// Records the port the listener really got.
    func listening(on port: Int) {
        listeningPort.store(port, ordering: .relaxed)
    }

    /// `publicBaseURL` without a trailing `/`, else `http://host:port`; nil when the host is every interface
    /// (the page then uses the host it was reached by).
    func base(publicBaseURL: URL?) -> String? {
        if let publicBaseURL {
            let text = publicBaseURL.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        guard !["0.0.0.0", "::", ""].contains(host) else { return nil }
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
