import Foundation
import Synchronization
import WebImage

/// The shared cache tier: encoded image bytes (originals and processed results, never decoded pixels) in one
/// or more Redis servers, usable as the last tier of a ``CachesManager``.
///
/// Keys are spread over the servers by consistent hashing, so adding one of N servers moves about 1/N of
/// them; a Redis Cluster (`redis-cluster://` seeds) spreads them by its own slots instead. Every call has the client's deadline (default 50 ms) and circuit breaker: a slow or dead Redis is a
/// miss (or a failed store) in bounded time, never an error for the request. Values are framed
/// (``SharedCacheEntry``) and checked when read, so a torn, foreign or changed value is a miss.
///
/// ```swift
/// let shared = RedisImageCache(endpoints: [RedisEndpoint(url: "redis://10.0.0.5:6379")!])
/// let caches = CachesManager(caches: [shared, ImageCache.shared])   // local first, then shared
/// ```
public final class RedisImageCache: ImageCaching {
    /// How values are named and kept.
    public struct Configuration: Sendable {
        /// Put before every key, so the tier can share a Redis with other data. Default `swi:`.
        public var keyPrefix: String
        /// How long a value lives. Default 7 days.
        public var timeToLive: Duration
        /// Each server's client settings (deadline 50 ms, breaker after 3 failures for 5 s, 2 connections).
        public var client: RedisClient.Configuration

        public init(keyPrefix: String = "swi:", timeToLive: Duration = .seconds(7 * 24 * 3600),
                    client: RedisClient.Configuration = RedisClient.Configuration()) {
            self.keyPrefix = keyPrefix
            self.timeToLive = timeToLive
            self.client = client
        }
    }

    public let configuration: Configuration
    private let nodes: [(name: String, client: any RedisCommanding)]
    private let ring: ConsistentHashRing<Int>
    private let coders: CodersManager

    /// A tier over these servers (in any order: the ring depends only on their addresses). Cluster endpoints
    /// (``RedisEndpoint/isCluster``) are the seeds of one ``RedisClusterClient``, which stands on the ring as one
    /// node named `redis-cluster`: given alone, the cluster's slots spread the keys.
    public convenience init(endpoints: [RedisEndpoint], configuration: Configuration = Configuration(),
                            coders: CodersManager = .shared) {
        let seeds = endpoints.filter(\.isCluster)
        var nodes: [(name: String, client: any RedisCommanding)] = endpoints.filter { !$0.isCluster }.map {
            ($0.ringName, RedisClient(endpoint: $0, configuration: configuration.client))
        }
        if !seeds.isEmpty {
            nodes.append(("redis-cluster", RedisClusterClient(seeds: seeds, configuration: configuration.client)))
        }
        self.init(nodes: nodes, configuration: configuration, coders: coders)
    }

    /// A tier over clients of your own, each named (its place on the hash ring).
    public init(nodes: [(name: String, client: any RedisCommanding)], configuration: Configuration = Configuration(),
                coders: CodersManager = .shared) {
        self.nodes = nodes
        self.configuration = configuration
        self.coders = coders
        ring = ConsistentHashRing(nodes: Array(nodes.indices), name: { nodes[$0].name })
    }

    /// Whether every server's breaker is closed (false while any is refusing calls after failures).
    public var isAvailable: Bool {
        nodes.allSatisfy(\.client.isAvailable)
    }

    /// The servers refusing calls (a ``RedisClient``'s by its endpoint, `rediss://HOST:PORT/DB`, a cluster by its
    /// seeds; others by their node name), each with the failure that stopped them (``RedisCommanding/failure``).
    public var unavailableServers: [(name: String, failure: RedisError?)] {
        nodes.filter { !$0.client.isAvailable }.map { node in
            let name = (node.client as? RedisClient)?.endpoint.description
                ?? (node.client as? RedisClusterClient)?.description ?? node.name
            return (name, node.client.failure)
        }
    }

    /// Closes every node's connections; later calls fail as the breaker's would.
    public func close() async {
        for node in nodes { await node.client.close() }
    }

    /// The name of the server `key` lives on.
    public func nodeName(forKey key: String) -> String? {
        ring.node(for: key).map { nodes[$0].name }
    }

    /// The entry under `key`; nil when there is none or it is not a whole, well-formed value.
    public func entry(forKey key: String) async throws(RedisError) -> SharedCacheEntry? {
        try await read(forKey: key).entry
    }

    /// What is under `key`: a verified entry, nothing, or a value that fails the checks.
    public func read(forKey key: String) async throws(RedisError) -> SharedCacheRead {
        guard let client = client(for: key), let value = try await client.get(configuration.keyPrefix + key) else {
            return .absent
        }
        return SharedCacheEntry(decoding: value).map(SharedCacheRead.entry) ?? .rejected
    }

    /// Writes `entry` whole under `key`, with the time to live.
    public func store(_ entry: SharedCacheEntry, forKey key: String) async throws(RedisError) {
        guard let client = client(for: key) else { return }
        try await client.set(configuration.keyPrefix + key, value: entry.encoded, expiry: configuration.timeToLive)
    }

    private func client(for key: String) -> (any RedisCommanding)? {
        ring.node(for: key).map { nodes[$0].client }
    }

    // MARK: - ImageCaching

    /// A hit is decoded with the context's decode options and answers `.disk` (a tier beyond memory); a
    /// memory-only query, a miss, a bad value or a failed call answers `.miss`.
    @discardableResult
    public func queryImage(forKey key: String?, options: ImageCacheOptions, context: ImageCacheQueryContext,
                           cacheType: ImageCacheType,
                           completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        guard let key, cacheType.includesDisk else { return answered(.miss, completion) }
        let decodeOptions = context.decodeOptions ?? ImageDecodeOptions(cacheKey: key)
        return run(cancelled: .miss, completion) { [coders] in
            guard let entry = try? await self.entry(forKey: key),
                  let image = try? coders.decode(Data(entry.bytes), options: decodeOptions) else { return .miss }
            return ImageCacheQueryResult(image: image, data: Data(entry.bytes), cacheType: .disk)
        }
    }

    /// Writes `data` (else the animation's original bytes, else the image encoded as PNG with alpha or JPEG);
    /// answers ``WebImageError/cacheFailure(path:reason:)`` when Redis refused or did not answer in time.
    @discardableResult
    public func storeImage(_ image: Image?, data: Data?, forKey key: String?, cacheType: ImageCacheType,
                           completion: (@Sendable (WebImageError?) -> Void)?) -> CacheToken {
        guard let key, cacheType.includesDisk else { return answered(nil, completion) }
        let bytes: Data
        do {
            if let given = data ?? image?.animatedImageData {
                bytes = given
            } else if let image {
                bytes = try coders.encode(image, as: image.hasAlpha ? .png : .jpeg, options: ImageEncodeOptions(quality: 0.9))
            } else {
                return answered(nil, completion)
            }
        } catch {
            return answered(error as? WebImageError ?? .encodingFailed(format: .png, reason: "\(error)"), completion)
        }
        let format = ImageFormat(sniffing: bytes)
        let node = nodeName(forKey: key) ?? "redis"
        return run(cancelled: WebImageError.cancelled, completion) { () -> WebImageError? in
            do {
                try await self.store(SharedCacheEntry(bytes: Array(bytes), format: format), forKey: key)
                return nil
            } catch {
                return WebImageError.cacheFailure(path: node, reason: "\(error)")
            }
        }
    }

    @discardableResult
    public func removeImage(forKey key: String?, cacheType: ImageCacheType,
                            completion: (@Sendable () -> Void)?) -> CacheToken {
        guard let key, cacheType.includesDisk, let client = client(for: key) else {
            completion?()
            return .completed()
        }
        return run(cancelled: (), completion.map { done in { _ in done() } }) {
            _ = try? await client.delete([self.configuration.keyPrefix + key])
        }
    }

    @discardableResult
    public func containsImage(forKey key: String?, cacheType: ImageCacheType,
                              completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken {
        guard let key, cacheType.includesDisk, let client = client(for: key) else {
            return answered(ImageCacheType.none, completion)
        }
        return run(cancelled: ImageCacheType.none, completion) {
            let reply = try? await client.command(["EXISTS", self.configuration.keyPrefix + key])
            return reply == .integer(1) ? .disk : .none
        }
    }

    /// Removes nothing: the tier is shared by every instance, so one instance does not empty it; values
    /// leave by their time to live (or `DEL`/`FLUSHDB` by the operator).
    @discardableResult
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        completion?()
        return .completed()
    }

    private func answered<T: Sendable>(_ value: T, _ completion: (@Sendable (T) -> Void)?) -> CacheToken {
        completion?(value)
        return .completed()
    }

    /// Runs `work` in a task; the token's cancel answers `cancelled` at once and cancels the task.
    private func run<T: Sendable>(cancelled: T, _ completion: (@Sendable (T) -> Void)?,
                                  _ work: @escaping @Sendable () async -> T) -> CacheToken {
        let task = Mutex<Task<Void, Never>?>(nil)
        let token = CacheToken {
            task.withLock { $0?.cancel() }
            completion?(cancelled)
        }
        task.withLock { running in
            running = Task {
                let value = await work()
                if token.complete() { completion?(value) }
            }
        }
        return token
    }
}
