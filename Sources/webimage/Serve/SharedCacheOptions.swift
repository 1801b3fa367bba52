import ArgumentParser
import WebImageRedis
import WebImageServer

/// `webimage serve`'s shared Redis tier: the servers and the settings of every call to them.
struct SharedCacheOptions: ParsableArguments {
    @Option(name: .customLong("shared-cache"),
            help: ArgumentHelp("Redis server shared with other instances (repeatable; keys spread by consistent "
                               + "hashing). Default: none.", valueName: "redis://[:PASSWORD@]HOST:PORT[/DB]"))
    var servers: [String] = []

    @Option(name: .customLong("shared-cache-ttl"), parsing: .unconditional,
            help: ArgumentHelp("How long a value lives in the shared cache, in seconds. Default 604800 (7 days).",
                               valueName: "N"))
    var timeToLive: String?

    @Option(name: .customLong("shared-cache-deadline-ms"), parsing: .unconditional,
            help: ArgumentHelp("The most one shared-cache call may take, in milliseconds. Default 50.", valueName: "N"))
    var deadline: String?

    @Option(name: .customLong("shared-cache-breaker-failures"), parsing: .unconditional,
            help: ArgumentHelp("Failures in a row that stop calls to a shared-cache server. Default 3.", valueName: "N"))
    var breakerFailures: String?

    @Option(name: .customLong("shared-cache-breaker-seconds"), parsing: .unconditional,
            help: ArgumentHelp("How long calls stay stopped before one trial, in seconds. Default 5.", valueName: "N"))
    var breakerSeconds: String?

    /// The tier's configuration, or nil when no server is given (by flag or `WEBIMAGE_SHARED_CACHE`).
    func configuration(_ source: ServeSettings.Source) throws -> SharedCacheConfiguration? {
        let urls = source.list(servers, "WEBIMAGE_SHARED_CACHE")
        guard !urls.isEmpty else { return nil }
        let endpoints = try urls.map { url in
            guard let endpoint = RedisEndpoint(url: url) else {
                throw CLIFailure(subject: "--shared-cache",
                                 reason: "bad value '\(url)': give redis://[:PASSWORD@]HOST:PORT[/DB]")
            }
            return endpoint
        }
        let ttl = try ServeSettings.positive(source.text(timeToLive, "WEBIMAGE_SHARED_CACHE_TTL"),
                                             option: "--shared-cache-ttl", default: 7 * 24 * 3600)
        let milliseconds = try ServeSettings.positive(source.text(deadline, "WEBIMAGE_SHARED_CACHE_DEADLINE_MS"),
                                                      option: "--shared-cache-deadline-ms", default: 50)
        let failures = try ServeSettings.positive(source.text(breakerFailures, "WEBIMAGE_SHARED_CACHE_BREAKER_FAILURES"),
                                                  option: "--shared-cache-breaker-failures", default: 3)
        let seconds = try ServeSettings.positive(source.text(breakerSeconds, "WEBIMAGE_SHARED_CACHE_BREAKER_SECONDS"),
                                                 option: "--shared-cache-breaker-seconds", default: 5)
        return SharedCacheConfiguration(endpoints: endpoints, timeToLive: .seconds(ttl),
                                        deadline: .milliseconds(milliseconds), breakerFailureThreshold: failures,
                                        breakerOpenDuration: .seconds(seconds))
    }
}
