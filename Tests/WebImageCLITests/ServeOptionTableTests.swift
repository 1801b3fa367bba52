import Foundation
import Testing
import TestSupport
import WebImage
@testable import webimage

/// `serve`'s options are declared once (``ServeOptions/all``): each sets exactly the field it names, by flag and
/// by every environment variable alike, and every field of the proxy's configuration a deployment sets has one.
@Suite struct ServeOptionTableTests {
    static let key = "736563726574", salt = "68656c6c6f"

    /// A 4×2 PNG, as `IMGPROXY_WATERMARK_DATA` holds one, and a file of it for `IMGPROXY_WATERMARK_PATH`.
    static let watermarkPNG: Data = {
        let pixels = PixelBuffer(width: 4, height: 2, bytes: [UInt8](repeating: 200, count: 32))
        return (try? CodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())) ?? Data()
    }()

    static let watermarkFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-watermark-\(getpid()).png").path
        try? watermarkPNG.write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// A presets file, as `IMGPROXY_PRESETS_PATH` names one.
    static let presetsFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-presets-\(getpid()).txt").path
        try? "# thumbnails\nsmall=w:50\n\nlarge=w:500/q:90\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// A file of info presets, as `IMGPROXY_INFO_PRESETS_PATH` names one.
    static let infoPresetsFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-info-presets-\(getpid()).txt").path
        try? "# placeholders\nsmall=bh:4:3\n\nfull=th:1/ph:1\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// A valid value other than the default, for every option (a new option without one fails `everyOptionHasASample`).
    static let samples: [String: [String]] = [
        "bind": ["10.0.0.1:9000"], "metrics-bind": ["127.0.0.1:9100"], "key": ["6b6579"], "salt": ["73616c74"],
        "signature-size": ["8"], "allow-unsigned": ["true"], "allow-private-sources": ["true"],
        "allow-loopback-sources": ["true"], "allow-private-network-sources": ["true"], "allow-link-local-sources": ["true"],
        "secret": ["s3cr3t-token"],
        "jpeg-progressive": ["true"], "png-interlaced": ["true"], "png-quantize": ["true"],
        "png-quantization-colors": ["16"], "webp-effort": ["6"], "webp-preset": ["photo"], "avif-speed": ["3"],
        "jxl-effort": ["9"], "jpeg-no-subsample": ["true"], "webp-compression": ["near_lossless"],
        "webp-smart-subsample": ["true"], "avif-subsample": ["off"], "autoquality-method": ["dssim"],
        "autoquality-target": ["0.03"], "autoquality-min": ["60"], "autoquality-format-min": ["webp=50"],
        "autoquality-max": ["90"], "autoquality-format-max": ["webp=95"], "autoquality-allowed-error": ["0.01"],
        "autoquality-max-resolution": ["12.5"], "unsharp-masking-mode": ["auto"], "unsharp-masking-weight": ["2"],
        "unsharp-masking-divider": ["12"], "best-format-complexity-threshold": ["3"],
        "best-format-max-resolution": ["2.5"], "best-format-by-default": ["true"], "best-format-allow-skips": ["true"],
        "allowed-scheme": ["https"], "trusted-host": ["store.internal"], "allowed-source": ["https://a.example/"],
        "max-redirects": ["2"], "local-root": ["/tmp"], "use-s3": ["true"],
        "s3-endpoint": ["http://minio.internal:9000"], "s3-region": ["eu-west-1"], "s3-path-style": ["false"],
        "s3-access-key-id": ["AKIDEXAMPLE"], "s3-secret-access-key": ["secret"], "s3-session-token": ["token"], "source-ca": ["/etc/hostname"], "max-src-bytes": ["1000"],
        "result-store": ["s3://other-results/thumbs/v2"], "result-store-ttl": ["3600"], "result-store-deadline-ms": ["500"],
        "result-store-breaker-failures": ["5"], "result-store-breaker-seconds": ["2"],
        "result-store-max-pending-writes": ["3"], "result-store-max-entry-bytes": ["1000"],
        "max-src-megapixels": ["2.5"], "allow-security-options": ["true"], "max-output-side": ["1000"], "max-output-pixels": ["1000000"],
        "download-timeout": ["9"], "download-idle-timeout": ["7"], "processing-timeout": ["30"],
        "cache-dir": ["/tmp/serve-cache"], "memory-cache-bytes": ["1000"], "disk-cache-bytes": ["5000"],
        "revalidate-sources-after": ["0"],
        "shared-cache": ["redis://10.0.0.6:6381/1"], "shared-cache-ca": ["/etc/ssl/certs/ca-certificates.crt"],
        "shared-cache-cert": ["/etc/redis/client.crt"], "shared-cache-key": ["/etc/redis/client.key"],
        "shared-cache-ttl": ["60"], "shared-cache-deadline-ms": ["20"],
        "shared-cache-breaker-failures": ["5"], "shared-cache-breaker-seconds": ["2"],
        "shared-cache-connections": ["4"], "shared-cache-max-entry-bytes": ["1000"],
        "shared-cache-max-pending-writes": ["3"], "shared-cache-key-prefix": ["x:"], "workers": ["13"],
        "queue": ["5"], "retry-after": ["4"], "preset": ["thumb=rs:fill:100:100"], "presets-file": [presetsFile], "only-presets": ["true"],
        "info-preset": ["small=bh:4:3"], "info-presets-file": [infoPresetsFile], "info-only-presets": ["true"],
        "allowed-info-option": ["size", "s"],
        "watermark-path": [watermarkFile], "watermark-data": [watermarkPNG.base64EncodedString()],
        "watermark-opacity": ["0.5"], "watermark-url": ["https://images.example/mark.png"],
        "fallback-image-url": ["http://images.example/fallback.png"], "fallback-image-path": [watermarkFile],
        "fallback-image-data": [watermarkPNG.base64EncodedString()], "fallback-image-status": ["404"],
        "fallback-image-ttl": ["60"], "quality": ["55"],
        "format-quality": ["webp=70"], "strip-metadata": ["false"], "keep-copyright": ["false"], "preferred-format": ["webp", "png"],
        "no-negotiation": ["true"], "negotiate-webp": ["false"], "negotiate-avif": ["false"], "negotiate-jxl": ["true"],
        "enforce-webp": ["true"], "enforce-avif": ["true"], "enforce-jxl": ["true"], "max-animation-frames": ["100"],
        "max-animation-frame-megapixels": ["2"], "strip-color-profile": ["false"], "enforce-thumbnail": ["true"], "auto-rotate": ["false"],
        "sanitize-svg": ["false"], "always-rasterize-svg": ["true"], "pdf-sources": ["true"], "pdf-memory-bytes": ["33554432"], "pdf-cpu-seconds": ["5"],
        "video-thumbnails": ["true"], "video-thumbnail-second": ["2.5"], "video-thumbnail-keyframes": ["true"],
        "video-thumbnail-tile-auto-keyframes": ["true"],
        "video-thumbnail-probe-size": ["1000000"], "video-thumbnail-max-analyze-duration": ["500"],
        "video-memory-bytes": ["33554432"], "video-cpu-seconds": ["5"],
        "skip-processing-format": ["gif", "png"], "ttl": ["60"], "error-ttl": ["3"],
        "drain-seconds": ["5"], "operator-page": ["false"], "operator-signing": ["true"],
        "operator-base-url": ["https://images.example.com"], "log-level": ["debug"], "log-format": ["json"], "access-log": ["false"],
        "tracing": ["true"], "otlp-endpoint": ["http://collector.internal:4318"], "propagate-trace-context": ["true"],
    ]

    /// Fields `serve` sets outside the options, and why.
    static let setElsewhere: [String: String] = [
        "configuration.processing.coders": "code, not a setting: a library user registers coders",
        "configuration.instrumentation": "serve makes it after bootstrapping logging and metrics (--log-level, --metrics-bind)",
        "configuration.accessLogger": "serve makes it from --access-log",
        "configuration.caches.shared.instrumentation": "the tier uses the proxy's instrumentation",
        "configuration.caches.shared.redis.client.parser": "bounds on what a Redis server may send: protocol safety",
        "configuration.processing.pdfRendering.executable": "serve draws PDF pages in its own executable",
        "configuration.processing.pdfRendering.arguments": "the child is its own `pdf-page` subcommand",
        "configuration.processing.videoThumbnails.child.executable": "serve reads videos in its own executable",
        "configuration.processing.videoThumbnails.child.arguments": "the child is its own `video-frame` subcommand",
        "configuration.processing.videoThumbnails.child.timeLimit.low": "the processing timeout is the child's",
        "configuration.processing.videoThumbnails.child.timeLimit.high": "the processing timeout is the child's",
        "configuration.processing.encoderTuning.pngQuantizeColors": "--png-quantize and --png-quantization-colors give it",
    ]

    /// Settings with a key pair, a shared cache and S3 sources on, so that each option's change shows alone. The queue is set:
    /// its default follows `--workers`.
    static func base() -> ServeSettings {
        var settings = ServeSettings.defaults
        settings.keys = [key]
        settings.salts = [salt]
        settings.sharedCache.endpoints = [.init(host: "10.0.0.5", port: 6380)]
        settings.queue = 8
        settings.s3 = S3Settings(enabled: true, accessKeyID: "AKIDBASE", secretAccessKey: "base")
        settings.s3.resultStore.bucket = "results"
        return settings
    }

    /// ``base()``, with S3 sources off when `name` is the switch that turns them on, and then no result store (it
    /// takes the sources' store once they are on, so turning them on would change it too).
    static func base(for name: String) -> ServeSettings {
        var settings = base()
        settings.s3.enabled = name != "use-s3"
        if name == "use-s3" { settings.s3.resultStore.bucket = "" }
        return settings
    }

    static func finished(_ settings: ServeSettings) throws -> [String: String] {
        var settings = settings
        try settings.finish()
        return Self.leaves(settings)
    }

    @Test func everyOptionHasASampleAndOneName() {
        let names = ServeOptions.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(Self.samples.keys))
        let variables = ServeOptions.all.flatMap(\.variables)
        #expect(Set(variables).count == variables.count)
    }

    /// Each option changes its own field and nothing else.
    @Test(arguments: ServeOptions.all.map(\.name))
    func anOptionChangesOnlyItsField(_ name: String) throws {
        let option = try #require(ServeOptions.all.first { $0.name == name })
        var settings = Self.base(for: name)
        try option.apply(&settings, ServeOption.Given(values: try #require(Self.samples[name]), origin: option.flag))
        let before = try Self.finished(Self.base(for: name)), after = try Self.finished(settings)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            .filter { !Self.isTransient($0) }
        #expect(!changed.isEmpty, "\(name) changed nothing")
        #expect(changed.allSatisfy { $0 == option.field || $0.hasPrefix(option.field + ".") },
                "\(name) changed \(changed.sorted()), not only \(option.field)")
    }

    /// The flag and each of its variables give the same settings.
    @Test(arguments: ServeOptions.all.map(\.name))
    func flagAndEveryVariableAgree(_ name: String) throws {
        let option = try #require(ServeOptions.all.first { $0.name == name })
        let sample = try #require(Self.samples[name])
        var flags: [String]
        var text = sample.joined(separator: ",")
        switch option.kind {
        case .value, .list: flags = sample.flatMap { [option.flag, $0] }
        case .toggle, .invertible:
            flags = [sample == ["true"] ? option.flag : "--no-\(option.name)"]
            text = sample == ["true"] ? "1" : "0"
        }
        let companion: [String] = switch name {
        case "key": ["--salt", Self.salt]
        case "salt": ["--key", Self.key]
        case "allow-unsigned": []
        // S3 sources need the store's key.
        case "use-s3", "result-store": ["--allow-unsigned", "--s3-access-key-id", "AKIDEXAMPLE", "--s3-secret-access-key", "secret"]
        default: ["--allow-unsigned"]
        }
        let byFlag = Self.leaves(try ServeSettings(arguments: companion + flags, environment: [:]))
        // Without the option, `key`, `salt` and `allow-unsigned` leave no way to sign: that fails, as it should.
        if let defaults = try? ServeSettings(arguments: companion, environment: [:]) {
            #expect(byFlag != Self.leaves(defaults), "\(name) changed nothing")
        }
        for variable in option.variables {
            let byVariable = try ServeSettings(arguments: companion, environment: [variable: text])
            #expect(Self.leaves(byVariable) == byFlag, "\(variable)=\(text)")
        }
    }

    /// Every field of the proxy's configuration is some option's, or set by `serve` for a stated reason.
    @Test func everyConfigurationFieldHasAnOption() throws {
        let fields = Self.leaves(try { var s = Self.base(); try s.finish(); return s }()).keys
            .filter { $0.hasPrefix("configuration.") }
        let owners = ServeOptions.all.map(\.field) + Self.setElsewhere.keys
        let orphans = fields.filter { field in !owners.contains { field == $0 || field.hasPrefix($0 + ".") } }
        #expect(orphans.isEmpty, "no option sets \(orphans.sorted())")
    }

    /// The service guide's flag table names every option and every variable.
    @Test func theServiceGuideListsEveryOption() throws {
        let guide = try String(contentsOf: TestCorpus.packageRoot.appendingPathComponent("Docs/Service.md"), encoding: .utf8)
        let rows = guide.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        for option in ServeOptions.all {
            let row = rows.first { row in
                let flags = row.split(separator: "|").first ?? ""
                return flags.contains("`\(option.flag) ") || flags.contains("`\(option.flag)`")
            }
            #expect(row != nil, "no row in Docs/Service.md for \(option.flag)")
            for variable in option.variables {
                #expect(row?.contains("`\(variable)`") == true, "\(option.flag)'s row lacks \(variable)")
            }
        }
    }

    /// The compatibility page names every imgproxy variable an option reads.
    @Test func theCompatibilityPageListsEveryImgproxyVariable() throws {
        let page = try String(contentsOf: TestCorpus.packageRoot.appendingPathComponent("COMPATIBILITY.md"),
                              encoding: .utf8)
        for variable in ServeOptions.all.flatMap(\.variables) where variable.hasPrefix("IMGPROXY_") {
            #expect(page.contains("`\(variable)`"), "\(variable) is not on COMPATIBILITY.md")
        }
    }

    @Test func ourVariableWinsOverImgproxysAndUnknownOnesAreReported() throws {
        let settings = try ServeSettings(arguments: ["--allow-unsigned"],
                                         environment: ["WEBIMAGE_TTL": "60", "IMGPROXY_TTL": "70",
                                                       "IMGPROXY_QUALITY": "70", "IMGPROXY_USE_ETAG": "true",
                                                       "IMGPROXY_USE_LINEAR_COLORSPACE": "1", "OTHER": "x"])
        #expect(settings.configuration.responses.cacheTTL == 60)
        #expect(settings.configuration.processing.defaultQuality == 70)
        #expect(settings.ignoredVariables == ["IMGPROXY_USE_ETAG", "IMGPROXY_USE_LINEAR_COLORSPACE"])
    }

    @Test func imgproxysBindAndPresets() throws {
        let settings = try ServeSettings(arguments: [], environment: [
            "IMGPROXY_BIND": ":8081", "IMGPROXY_KEY": "\(Self.key),6f6c64", "IMGPROXY_SALT": "\(Self.salt),73616c74",
            "IMGPROXY_PRESETS": "thumb=rs:fill:100:100/q:70, small=w:50", "IMGPROXY_MAX_SRC_RESOLUTION": "16.8"])
        #expect(settings.bind == ServeAddress(host: "0.0.0.0", port: 8081))
        #expect(settings.configuration.signing.keyPairs.count == 2)
        #expect(settings.configuration.processing.presets == ["thumb": "rs:fill:100:100/q:70", "small": "w:50"])
        #expect(settings.configuration.limits.maxSourcePixels == 16_800_000)
    }

    @Test func badCommandLinesNameTheProblem() {
        let cases: [([String], String)] = [
            (["--allow-unsigned", "--workers"], "webimage: --workers: missing value: give N"),
            (["--allow-unsigned", "--nope"], "webimage: serve: unknown option '--nope': see webimage serve --help"),
            (["--allow-unsigned", "stray"], "webimage: serve: unexpected argument 'stray': see webimage serve --help"),
            (["--allow-unsigned=1"], "webimage: --allow-unsigned: takes no value"),
            (["--allow-unsigned", "--preset", "thumb"], "webimage: --preset: bad value 'thumb': give NAME=OPTIONS"),
            (["--allow-unsigned", "--preset", "a=w:1", "--preset", "a=w:2"], "webimage: --preset: 'a' is given twice"),
            (["--allow-unsigned", "--preset", "a=w:-1"],
             "webimage: --preset: preset 'a': w takes a whole number from 0 to 16384, not '-1'"),
            (["--allow-unsigned", "--preset", "a=pr:a"], "webimage: --preset: preset 'a': presets nest deeper than 4 levels"),
            (["--allow-unsigned", "--preset", "a=" + String(repeating: "w:1/", count: 2000)],
             "webimage: --preset: 'a' is longer than 4096 bytes"),
            (["--allow-unsigned", "--watermark-data", "aGVsbG8="],
             "webimage: --watermark-data: the watermark is not a usable image: unsupported format: the bytes match no known image signature"),
            (["--allow-unsigned", "--watermark-opacity", "2"], "webimage: --watermark-opacity: bad value '2': give 0 to 1"),
            (["--allow-unsigned", "--presets-file", "/nonexistent/presets"],
             "webimage: --presets-file: cannot read '/nonexistent/presets' as UTF-8 text"),
            (["--allow-unsigned", "--allowed-scheme", "file"], "webimage: --allowed-scheme: bad value 'file': give http or https"),
            (["--allow-unsigned", "--signature-size", "33"], "webimage: --signature-size: bad value '33': give at most 32"),
            (["--allow-unsigned", "--quality", "0"], "webimage: --quality: bad value '0': give a positive whole number"),
            (["--allow-unsigned", "--bind", "[]:80"], "webimage: --bind: bad value '[]:80': give HOST:PORT (e.g. 127.0.0.1:8080)"),
        ]
        for (arguments, line) in cases {
            #expect(throws: CLIFailure.self, "\(arguments)") { _ = try ServeSettings(arguments: arguments, environment: [:]) }
            do {
                _ = try ServeSettings(arguments: arguments, environment: [:])
            } catch {
                #expect("\(error)" == line)
            }
        }
        #expect(throws: CLIFailure.self) {
            _ = try ServeSettings(arguments: ["--allow-unsigned"], environment: ["IMGPROXY_MAX_SRC_FILE_SIZE": "0"])
        }
    }

    /// The inputs ``ServeSettings/finish()`` copies into the configuration: their change shows there.
    static func isTransient(_ path: String) -> Bool {
        ["keys", "salts", "presets", "infoPresets", "maxSourceMegapixels", "queue", "sharedCache", "s3"].contains {
            path == $0 || path.hasPrefix($0 + ".")
        }
    }

    /// Every stored value by its path (`configuration.limits.maxSourceBytes`); sets sorted, optionals unwrapped.
    static func leaves(_ value: Any, path: String = "") -> [String: String] {
        if let url = value as? URL { return [path: url.absoluteString] }
        if let data = value as? Data { return [path: data.base64EncodedString()] }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct?:
            var found: [String: String] = [:]
            for child in mirror.children {
                guard var label = child.label else { continue }
                if label.hasPrefix("_") { label.removeFirst() }
                found.merge(leaves(child.value, path: path.isEmpty ? label : "\(path).\(label)")) { first, _ in first }
            }
            return found
        case .optional?:
            return mirror.children.first.map { leaves($0.value, path: path) } ?? [path: "nil"]
        case .set?:
            return [path: mirror.children.map { "\($0.value)" }.sorted().joined(separator: ",")]
        case .dictionary?:
            return [path: mirror.children.map { "\($0.value)" }.sorted().joined(separator: ",")]
        default:
            return [path: "\(value)"]
        }
    }
}
