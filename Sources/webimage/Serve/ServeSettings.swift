import Foundation
import Logging
import WebImageCLISupport
import WebImage
import WebImageRedis
import WebImageServer

/// Everything `webimage serve` runs with: the listeners, the proxy's configuration and the process's own
/// settings. Each option of ``ServeOptions/all`` sets one field; ``finish()`` joins the few that combine.
struct ServeSettings: Sendable {
    /// Where requests are served (`--bind`). Default 127.0.0.1:8080.
    var bind = ServeAddress(host: "127.0.0.1", port: 8080)
    /// Where Prometheus metrics are served (`--metrics-bind`); nil: no metrics listener.
    var metricsBind: ServeAddress?
    /// Whether the metrics listener serves the operator page (`--operator-page`). Default on.
    var servesOperatorPage = true
    /// The operator page's settings (`--operator-signing`, `--operator-base-url`). Default: not signing, links
    /// to the image listener.
    var operatorPage = OperatorPage()
    /// Signing keys and salts in hex, paired in order into the configuration's key pairs.
    var keys: [String] = []
    var salts: [String] = []
    /// Option lists named `NAME=OPTIONS`, into the configuration's presets.
    var presets: [String] = []
    /// Info option lists named `NAME=OPTIONS`, into the configuration's info presets.
    var infoPresets: [String] = []
    /// Megapixels, into the configuration's `limits.maxSourcePixels`.
    var maxSourceMegapixels: Double = 50
    /// Requests waiting for a worker; nil: 2 × workers.
    var queue: Int?
    /// The watermark given by URL, downloaded at start-up when no path or data gives one.
    var watermarkSource: OperatorImageSource?
    /// The fallback image given by URL, downloaded at start-up when no path or data gives one.
    var fallbackImageSource: OperatorImageSource?
    /// The S3 options, into the configuration's `sources.s3`.
    var s3 = S3Settings()
    /// The shared tier's settings; it is on when it names a server.
    var sharedCache = SharedCacheConfiguration(endpoints: [])
    var configuration = ImageProxyConfiguration(
        caches: .init(directory: DiskCache.defaultBaseDirectory.appendingPathComponent("serve")))
    /// On SIGTERM/SIGINT, how long requests under way may finish. Default 20 s.
    var drainTimeout: Duration = .seconds(20)
    /// What is logged on stderr, the access log apart. Default warning.
    var logLevel: Logger.Level = .warning
    /// How lines are written on stderr. Default text.
    var logFormat = LogFormat.text
    /// One `info` line per request on stderr. Default on.
    var accessLog = true
    /// Spans exported over OTLP/HTTP (`--tracing`). Default off.
    var tracing = false
    /// The OTLP/HTTP base URL (`--otlp-endpoint`), which turns tracing on; nil: the OTEL_* variables' or
    /// swift-otel's default.
    var otlpEndpoint: String?
    /// `IMGPROXY_*` variables set that nothing here reads: logged once at start-up, never silently ignored.
    var ignoredVariables: [String] = []

    /// What `serve` starts with before any option.
    static let defaults = ServeSettings()

    /// The settings the flags and, for an option without a flag, its environment variables give.
    init(arguments: [String], environment: [String: String]) throws {
        let flags = try ServeArguments.parse(arguments)
        for option in ServeOptions.all {
            if let given = try option.given(flags: flags[option.name] ?? [], environment: environment) {
                try option.apply(&self, given)
            }
        }
        let read = Set(ServeOptions.all.flatMap(\.variables))
        ignoredVariables = environment.keys.filter { $0.hasPrefix("IMGPROXY_") && !read.contains($0) }.sorted()
        try finish()
    }

    private init() {}

    /// Joins what several options give into the configuration, and checks what only holds of them together.
    mutating func finish() throws {
        configuration.signing.keyPairs = try Self.keyPairs(keys: keys, salts: salts)
        guard !configuration.signing.keyPairs.isEmpty || configuration.signing.allowsUnsigned else {
            throw CLIFailure(subject: "--key", reason: "give a signing --key and --salt, or --allow-unsigned")
        }
        configuration.processing.presets = try Self.presets(presets)
        do {
            try OptionsParser(presets: configuration.processing.presets,
                              allowsSecurityOptions: configuration.limits.allowsSecurityOptions).validatePresets()
        } catch {
            throw CLIFailure(subject: "--preset", reason: error.message)
        }
        configuration.info.presets = try Self.presets(infoPresets, subject: "--info-preset")
        do {
            try configuration.info.validatePresets()
        } catch {
            throw CLIFailure(subject: "--info-preset", reason: error.message)
        }
        configuration.limits.maxSourcePixels = Int(maxSourceMegapixels * 1_000_000)
        configuration.concurrency.queueSize = queue ?? 2 * configuration.concurrency.workers
        configuration.caches.shared = sharedCache.endpoints.isEmpty ? nil : sharedCache
        try ServeOptions.checkSharedCacheTLS(sharedCache)
        configuration.sources.s3 = try s3.store()
        configuration.caches.resultStore = try s3.resultStore(sources: configuration.sources.s3)
    }

    /// Key/salt pairs in the order given; every key needs its salt.
    static func keyPairs(keys: [String], salts: [String]) throws -> [URLSigner.KeyPair] {
        guard keys.count == salts.count else {
            throw CLIFailure(subject: "--key", reason: "\(keys.count) keys but \(salts.count) salts: give one --salt per --key")
        }
        return try zip(keys, salts).map { key, salt in
            guard let pair = URLSigner.KeyPair(keyHex: key, saltHex: salt) else {
                throw CLIFailure(subject: "--key", reason: "bad key/salt '\(key)'/'\(salt)': give non-empty even-length hex")
            }
            return pair
        }
    }

    /// The longest preset definition accepted: real ones are a few dozen bytes.
    static let maxPresetBytes = 4096

    /// `NAME=OPTIONS` entries as imgproxy's `IMGPROXY_PRESETS` writes them.
    static func presets(_ entries: [String], subject: String = "--preset") throws -> [String: String] {
        var presets: [String: String] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CLIFailure(subject: subject, reason: "bad value '\(entry.prefix(64))': give NAME=OPTIONS")
            }
            guard entry.utf8.count <= maxPresetBytes else {
                throw CLIFailure(subject: subject, reason: "'\(parts[0].prefix(64))' is longer than \(maxPresetBytes) bytes")
            }
            guard presets.updateValue(parts[1], forKey: parts[0]) == nil else {
                throw CLIFailure(subject: subject, reason: "'\(parts[0])' is given twice")
            }
        }
        return presets
    }

    /// The `NAME=OPTIONS` lines of a presets file (blank lines and lines starting with # skipped).
    static func presetLines(_ given: ServeOption.Given) throws -> [String] {
        guard let text = try? String(contentsOfFile: given.text, encoding: .utf8) else {
            throw CLIFailure(subject: given.origin, reason: "cannot read '\(given.text)' as UTF-8 text")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}

/// A `HOST:PORT` to listen on.
struct ServeAddress: Equatable, Sendable {
    var host: String
    var port: Int

    /// Parses `HOST:PORT` (`[::1]:8080` for IPv6; `:8080`, as imgproxy's `IMGPROXY_BIND` writes it, is every
    /// interface).
    init(_ text: String, origin: String) throws {
        let failure = CLIFailure(subject: origin, reason: "bad value '\(text)': give HOST:PORT (e.g. 127.0.0.1:8080)")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else { throw failure }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty {
            guard colon == text.startIndex else { throw failure }
            host = "0.0.0.0"
        }
        self.init(host: host, port: port)
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}
