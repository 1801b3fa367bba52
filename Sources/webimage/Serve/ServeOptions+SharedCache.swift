import Foundation
import WebImageCLISupport
import WebImageRedis
import WebImageServer

extension ServeOptions {
    /// The shared Redis tier (`configuration.caches.shared`, on when a server is named): its servers, TLS and
    /// client settings, and what it keeps.
    static let sharedCache: [ServeOption] = [
        ServeOption(name: "shared-cache", variables: ["WEBIMAGE_SHARED_CACHE"],
                    kind: .list("redis[s]://[[USER]:PASSWORD@]HOST:PORT[/DB]"),
                    help: "Redis server shared with other instances (repeatable; keys spread by consistent hashing), "
                        + "or redis[s]-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT…]: seeds of a Redis Cluster, "
                        + "whose slots spread the keys. rediss is TLS; USER is an ACL user (AUTH USER PASSWORD), "
                        + "percent-encoded like the password (prefer the variable: flags show in ps). Default: none.",
                    field: "configuration.caches.shared.endpoints") { settings, given in
            settings.sharedCache.endpoints = try sharedCacheEndpoints(given)
        },
        ServeOption(name: "shared-cache-ca", variables: ["WEBIMAGE_SHARED_CACHE_CA"], kind: .value("FILE"),
                    help: "The CA certificates (PEM) a rediss:// server's certificate must chain to, instead of the "
                        + "system's. Default: the system's trust store.",
                    field: "configuration.caches.shared.redis.client.tls.trustRoots") { settings, given in
            settings.sharedCache.redis.client.tls.trustRoots = .file(given.text)
        },
        ServeOption(name: "shared-cache-cert", variables: ["WEBIMAGE_SHARED_CACHE_CERT"], kind: .value("FILE"),
                    help: "Client certificate (PEM) shown to rediss:// servers that ask for one; needs "
                        + "--shared-cache-key. Default: none.",
                    field: "configuration.caches.shared.redis.client.tls.certificateFile") { settings, given in
            settings.sharedCache.redis.client.tls.certificateFile = given.text
        },
        ServeOption(name: "shared-cache-key", variables: ["WEBIMAGE_SHARED_CACHE_KEY"], kind: .value("FILE"),
                    help: "The client certificate's private key (PEM). Default: none.",
                    field: "configuration.caches.shared.redis.client.tls.privateKeyFile") { settings, given in
            settings.sharedCache.redis.client.tls.privateKeyFile = given.text
        },
        .duration("shared-cache-ttl", ["WEBIMAGE_SHARED_CACHE_TTL"], "How long a value lives in the shared cache, in seconds.",
                  field: "configuration.caches.shared.redis.timeToLive", \.sharedCache.redis.timeToLive),
        .duration("shared-cache-deadline-ms", ["WEBIMAGE_SHARED_CACHE_DEADLINE_MS"],
                  "Most one shared-cache call may take, in milliseconds (connecting, TLS handshake and AUTH included).",
                  field: "configuration.caches.shared.redis.client.deadline",
                  \.sharedCache.redis.client.deadline, unit: .milliseconds(1)),
        .number("shared-cache-breaker-failures", ["WEBIMAGE_SHARED_CACHE_BREAKER_FAILURES"],
                "Failures in a row that stop calls to a shared-cache server.",
                field: "configuration.caches.shared.redis.client.breakerFailureThreshold", \.sharedCache.redis.client.breakerFailureThreshold),
        .duration("shared-cache-breaker-seconds", ["WEBIMAGE_SHARED_CACHE_BREAKER_SECONDS"],
                  "How long calls stay stopped before one trial, in seconds.",
                  field: "configuration.caches.shared.redis.client.breakerOpenDuration", \.sharedCache.redis.client.breakerOpenDuration),
        .number("shared-cache-connections", ["WEBIMAGE_SHARED_CACHE_CONNECTIONS"], "Connections kept to each server.",
                field: "configuration.caches.shared.redis.client.connections", \.sharedCache.redis.client.connections, maximum: 64),
        .number("shared-cache-max-entry-bytes", ["WEBIMAGE_SHARED_CACHE_MAX_ENTRY_BYTES"],
                "Largest value written to the shared cache.", field: "configuration.caches.shared.maxEntryBytes",
                \.sharedCache.maxEntryBytes, maximum: 512 << 20),
        .number("shared-cache-max-pending-writes", ["WEBIMAGE_SHARED_CACHE_MAX_PENDING_WRITES"],
                "Shared-cache writes under way at once; more are dropped.", field: "configuration.caches.shared.maxPendingWrites",
                \.sharedCache.maxPendingWrites, minimum: 0),
        ServeOption(name: "shared-cache-key-prefix", variables: ["WEBIMAGE_SHARED_CACHE_KEY_PREFIX"], kind: .value("TEXT"),
                    help: "Put before every shared-cache key. Default \(ServeSettings.defaults.sharedCache.redis.keyPrefix).",
                    field: "configuration.caches.shared.redis.keyPrefix") { settings, given in
            settings.sharedCache.redis.keyPrefix = given.text
        },
    ]

    /// The servers `--shared-cache` names: standalone servers, or the seeds of one cluster. A variable's list is
    /// cut at commas, so a piece without a scheme continues the cluster URL before it.
    static func sharedCacheEndpoints(_ given: ServeOption.Given) throws -> [RedisEndpoint] {
        var urls: [String] = []
        for value in given.values {
            if value.contains("://") || urls.isEmpty { urls.append(value) } else { urls[urls.count - 1] += "," + value }
        }
        let endpoints = try urls.flatMap { url in
            guard let endpoints = RedisEndpoint.endpoints(url: url) else {
                throw CLIFailure(subject: given.origin, reason: "bad value '\(redacted(url))': "
                                     + "give redis[s]://[[USER]:PASSWORD@]HOST:PORT[/DB] or redis[s]-cluster://…")
            }
            return endpoints
        }
        let seeds = endpoints.filter(\.isCluster)
        guard seeds.isEmpty || seeds.count == endpoints.count else {
            throw CLIFailure(subject: given.origin, reason: "give standalone servers or a cluster's seeds, not both")
        }
        guard Set(seeds.map(\.usesTLS)).count <= 1 else {
            throw CLIFailure(subject: given.origin, reason: "a cluster's seeds are all redis-cluster:// or all rediss-cluster://")
        }
        return endpoints
    }

    /// With a `rediss://` server, the TLS files are read now: a missing CA file or half a client identity stops
    /// `serve` at start-up rather than failing every call.
    static func checkSharedCacheTLS(_ shared: SharedCacheConfiguration) throws {
        guard shared.endpoints.contains(where: \.usesTLS) else { return }
        do {
            try shared.redis.client.tls.check()
        } catch {
            throw CLIFailure(subject: "--shared-cache", reason: "TLS: \(error)")
        }
    }

    /// `url` with what is between `://` and the last `@` (user and password) shown as `***`: an error repeats it.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.range(of: "://").map(\.upperBound) ?? url.startIndex
        return start <= at ? url.replacingCharacters(in: start..<at, with: "***") : "***" + url[at...]
    }
}
