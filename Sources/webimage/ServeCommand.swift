import ArgumentParser
import Foundation
import Metrics
import Prometheus
import WebImage
import WebImageServer

/// `webimage serve`: the image service (imgproxy-compatible URLs) on Hummingbird, until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve resized and converted images from signed imgproxy-style URLs.",
        discussion: """
            Every flag can also be set with its WEBIMAGE_* environment variable (a flag wins; repeatable flags \
            take a comma-separated list): WEBIMAGE_BIND, WEBIMAGE_METRICS_BIND, WEBIMAGE_KEY, WEBIMAGE_SALT, \
            WEBIMAGE_ALLOW_UNSIGNED, WEBIMAGE_ALLOW_PRIVATE_SOURCES, WEBIMAGE_ALLOWED_SOURCES, WEBIMAGE_CACHE_DIR, \
            WEBIMAGE_MEMORY_CACHE_BYTES, WEBIMAGE_DISK_CACHE_BYTES, \
            WEBIMAGE_MAX_SRC_BYTES, WEBIMAGE_MAX_SRC_MEGAPIXELS, WEBIMAGE_WORKERS, WEBIMAGE_QUEUE, \
            WEBIMAGE_DRAIN_SECONDS, WEBIMAGE_NO_NEGOTIATION, WEBIMAGE_NO_AVIF_NEGOTIATION, WEBIMAGE_SOURCE_CA, \
            WEBIMAGE_LOG_LEVEL, WEBIMAGE_ACCESS_LOG (0 or 1), WEBIMAGE_SHARED_CACHE, WEBIMAGE_SHARED_CACHE_TTL, \
            WEBIMAGE_SHARED_CACHE_DEADLINE_MS, WEBIMAGE_SHARED_CACHE_BREAKER_FAILURES, \
            WEBIMAGE_SHARED_CACHE_BREAKER_SECONDS. \
            Prints one line, 'listening on http://HOST:PORT', once it accepts connections; logs (and one access \
            line per request) go to stderr.
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("Address to listen on (port 0 picks one). Default 127.0.0.1:8080.",
                                                       valueName: "HOST:PORT"))
    var bind: String?

    @Option(name: .customLong("metrics-bind"), parsing: .unconditional,
            help: ArgumentHelp("Serve Prometheus metrics at http://HOST:PORT/metrics. Default: none.",
                               valueName: "HOST:PORT"))
    var metricsBind: String?

    @Option(help: ArgumentHelp("Signing key in hex (repeatable, paired with --salt in order).",
                                                       valueName: "HEX"))
    var key: [String] = []

    @Option(help: ArgumentHelp("Signing salt in hex (repeatable).", valueName: "HEX"))
    var salt: [String] = []

    @Flag(name: .customLong("allow-unsigned"), help: "Accept unsigned URLs ('_' or 'unsafe' as the signature).")
    var allowUnsigned = false

    @Flag(name: .customLong("allow-private-sources"),
          help: "Allow sources on loopback, private, link-local and other non-public addresses.")
    var allowPrivateSources = false

    @Option(name: .customLong("allowed-source"),
            help: ArgumentHelp("Only fetch sources starting with this prefix (repeatable).", valueName: "PREFIX"))
    var allowedSources: [String] = []

    @Option(name: .customLong("cache-dir"), parsing: .unconditional,
            help: ArgumentHelp("Directory of the source and result caches. Default ~/.cache/SwiftWebImage/serve.",
                               valueName: "DIR"))
    var cacheDir: String?

    @Option(name: .customLong("memory-cache-bytes"), parsing: .unconditional,
            help: ArgumentHelp("Bytes of encoded results kept in memory. Default 67108864 (64 MiB).", valueName: "N"))
    var memoryCacheBytes: String?

    @Option(name: .customLong("disk-cache-bytes"), parsing: .unconditional,
            help: ArgumentHelp("Bytes each disk cache (sources, results) may take. Default 1073741824 (1 GiB).",
                               valueName: "N"))
    var diskCacheBytes: String?

    @Option(name: .customLong("max-src-bytes"), parsing: .unconditional,
            help: ArgumentHelp("Largest source accepted, in bytes. Default 50000000.", valueName: "N"))
    var maxSourceBytes: String?

    @Option(name: .customLong("max-src-megapixels"), parsing: .unconditional,
            help: ArgumentHelp("Largest source resolution, in megapixels. Default 50.", valueName: "N"))
    var maxSourceMegapixels: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Requests processed at once. Default: the number of cores.",
                                                       valueName: "N"))
    var workers: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Requests waiting for a worker before 429. Default 2 × workers.",
                                                       valueName: "N"))
    var queue: String?

    @Option(name: .customLong("drain-seconds"), parsing: .unconditional,
            help: ArgumentHelp("On SIGTERM/SIGINT, how long requests under way may finish. Default 20.", valueName: "N"))
    var drainSeconds: String?

    @Flag(name: .customLong("no-negotiation"), help: "Never choose the format from Accept (no Vary: Accept).")
    var noNegotiation = false

    @Flag(name: .customLong("no-avif-negotiation"), help: "Negotiate WebP but never AVIF (AVIF costs more CPU).")
    var noAVIFNegotiation = false

    @Option(name: .customLong("source-ca"),
            help: ArgumentHelp("PEM file of a certificate authority trusted for https sources besides the system's "
                               + "(repeatable).", valueName: "FILE"))
    var sourceCA: [String] = []

    @Option(name: .customLong("log-level"), parsing: .unconditional,
            help: ArgumentHelp("What the server and library log on stderr, from this level up. Default warning.",
                               valueName: "LEVEL"))
    var logLevel: String?

    @Flag(inversion: .prefixedNo,
          help: "One info line per request on stderr (logger SwiftWebImage.serve.access). Default on.")
    var accessLog: Bool?

    @OptionGroup(title: "Shared cache (Redis)")
    var sharedCache: SharedCacheOptions

    func run() async throws {
        var settings: ServeSettings
        do {
            settings = try makeSettings(environment: ProcessInfo.processInfo.environment)
        } catch {
            Console.error(CLIFailure(subject: "serve", error: error).description)
            throw ExitCode.failure
        }
        var metrics: (registry: PrometheusCollectorRegistry, host: String, port: Int)?
        if let address = settings.metrics {
            // Bootstrapped before the proxy exists, so every component's default factory is Prometheus'.
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            metrics = (registry, address.host, address.port)
        }
        // The configuration was made before the bootstrap: it takes the factory now (Prometheus' or the no-op).
        settings.configuration.metricsFactory = MetricsSystem.factory
        settings.startLogging()
        let proxy = ImageProxy(configuration: settings.configuration)
        let server = ImageProxyServer(proxy: proxy, host: settings.host, port: settings.port,
                                      drainTimeout: settings.drainTimeout, metrics: metrics) { host, port in
            let shown = host.contains(":") ? "[\(host)]" : host
            FileHandle.standardOutput.write(Data("listening on http://\(shown):\(port)\n".utf8))
        }
        do {
            try await server.run()
        } catch {
            Console.error(CLIFailure(subject: "serve", error: error).description)
            throw ExitCode.failure
        }
    }

    /// Flags and environment checked and combined; throws one ``CLIFailure`` for the first bad value.
    func makeSettings(environment: [String: String]) throws -> ServeSettings {
        let source = ServeSettings.Source(environment: environment)
        let (host, port) = try ServeSettings.address(source.text(bind, "WEBIMAGE_BIND") ?? "127.0.0.1:8080",
                                                     option: "--bind")
        let metrics = try source.text(metricsBind, "WEBIMAGE_METRICS_BIND").map {
            try ServeSettings.address($0, option: "--metrics-bind")
        }
        let pairs = try ServeSettings.keyPairs(keys: source.list(key, "WEBIMAGE_KEY"),
                                               salts: source.list(salt, "WEBIMAGE_SALT"))
        let unsigned = source.flag(allowUnsigned, "WEBIMAGE_ALLOW_UNSIGNED")
        guard !pairs.isEmpty || unsigned else {
            throw CLIFailure(subject: "--key", reason: "give a signing --key and --salt, or --allow-unsigned")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workerCount = try ServeSettings.positive(source.text(workers, "WEBIMAGE_WORKERS"), option: "--workers",
                                                     default: cores)
        let queueSize = try ServeSettings.positive(source.text(queue, "WEBIMAGE_QUEUE"), option: "--queue",
                                                   default: 2 * workerCount, allowZero: true)
        let megapixels = try ServeSettings.positive(source.text(maxSourceMegapixels, "WEBIMAGE_MAX_SRC_MEGAPIXELS"),
                                                    option: "--max-src-megapixels", default: 50)
        let drain = try ServeSettings.positive(source.text(drainSeconds, "WEBIMAGE_DRAIN_SECONDS"),
                                               option: "--drain-seconds", default: 20, allowZero: true)
        let cacheDirectory = source.text(cacheDir, "WEBIMAGE_CACHE_DIR").map { URL(fileURLWithPath: $0) }
            ?? DiskCache.defaultBaseDirectory.appendingPathComponent("serve")
        var configuration = ImageProxyConfiguration(
            keyPairs: pairs, allowsUnsigned: unsigned,
            sourcePolicy: SourcePolicy(allowedPrefixes: source.list(allowedSources, "WEBIMAGE_ALLOWED_SOURCES"),
                                       allowsPrivateAddresses: source.flag(allowPrivateSources,
                                                                           "WEBIMAGE_ALLOW_PRIVATE_SOURCES")),
            cacheDirectory: cacheDirectory,
            maxDiskCacheBytes: try ServeSettings.positive(source.text(diskCacheBytes, "WEBIMAGE_DISK_CACHE_BYTES"),
                                                          option: "--disk-cache-bytes", default: 1 << 30,
                                                          maximum: ServeSettings.maxBytes),
            memoryCacheBytes: try ServeSettings.positive(source.text(memoryCacheBytes, "WEBIMAGE_MEMORY_CACHE_BYTES"),
                                                         option: "--memory-cache-bytes", default: 64 << 20,
                                                         maximum: ServeSettings.maxBytes),
            maxSourceBytes: try ServeSettings.positive(source.text(maxSourceBytes, "WEBIMAGE_MAX_SRC_BYTES"),
                                                       option: "--max-src-bytes", default: 50_000_000,
                                                       maximum: ServeSettings.maxBytes),
            maxSourcePixels: megapixels * 1_000_000, workers: workerCount, queueSize: queueSize,
            negotiatesFormat: !source.flag(noNegotiation, "WEBIMAGE_NO_NEGOTIATION"),
            sharedCache: try sharedCache.configuration(source))
        configuration.negotiatesAVIF = !source.flag(noAVIFNegotiation, "WEBIMAGE_NO_AVIF_NEGOTIATION")
        var settings = ServeSettings(host: host, port: port, configuration: configuration,
                                     drainTimeout: .seconds(drain), metrics: metrics)
        try settings.readLogging(level: logLevel, accessLog: accessLog, from: source)
        settings.configuration.additionalTrustRootFiles = try ServeSettings.readableFiles(
            source.list(sourceCA, "WEBIMAGE_SOURCE_CA"), option: "--source-ca")
        return settings
    }
}
