import Foundation
import Logging
import WebImageCLISupport
import WebImage
import WebImageServer

/// Every `webimage serve` option, each declared once, in the order `--help` lists them.
enum ServeOptions {
    static let all: [ServeOption] = listening + signing + sources + s3 + limits + timeouts + caches + sharedCache
        + concurrency + processing + encoding + autoQuality + unsharpMasking + bestFormat + pdf + video + responses + process
        + tracing

    static let listening: [ServeOption] = [
        ServeOption(name: "bind", variables: ["WEBIMAGE_BIND", "IMGPROXY_BIND"], kind: .value("HOST:PORT"),
                    help: "Address to listen on (port 0 picks one; ':PORT' is every interface). Default 127.0.0.1:8080.",
                    field: "bind") { settings, given in
            settings.bind = try ServeAddress(given.text, origin: given.origin)
        },
        ServeOption(name: "metrics-bind", variables: ["WEBIMAGE_METRICS_BIND", "IMGPROXY_PROMETHEUS_BIND"],
                    kind: .value("HOST:PORT"),
                    help: "Serve Prometheus metrics at http://HOST:PORT/metrics, and the operator page at / (port 0 picks one). Default: none.",
                    field: "metricsBind") { settings, given in
            settings.metricsBind = try ServeAddress(given.text, origin: given.origin)
        },
        .invertible("operator-page", ["WEBIMAGE_OPERATOR_PAGE"],
                    "Serve the operator page (live counters, charts, slowest requests, URL builder) at / on the "
                        + "metrics listener, which must stay private: it shows source URLs. Default on.",
                    field: "servesOperatorPage", \.servesOperatorPage),
        .toggle("operator-signing", ["WEBIMAGE_OPERATOR_SIGNING"],
                "Let the operator page's URL builder sign with the first --key: anyone who reaches the metrics "
                    + "listener can then sign any URL. Default off (the builder makes unsigned URLs only, with "
                    + "--allow-unsigned).",
                field: "operatorPage.signsURLs", \.operatorPage.signsURLs),
        ServeOption(name: "operator-base-url", variables: ["WEBIMAGE_OPERATOR_BASE_URL"], kind: .value("URL"),
                    help: "The image service's address as browsers reach it, for the operator page's links and "
                        + "previews. Default: the --bind address (its port on the page's host when it is every interface).",
                    field: "operatorPage.publicBaseURL") { settings, given in
            guard let url = URL(string: given.text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host?.isEmpty == false, url.query == nil, url.fragment == nil else {
                throw given.failure("give an http or https URL without a query")
            }
            settings.operatorPage.publicBaseURL = url
        },
    ]

    static let signing: [ServeOption] = [
        .list("key", ["WEBIMAGE_KEY", "IMGPROXY_KEY"], "Signing key in hex (repeatable, paired with --salt in order).",
              valueName: "HEX", field: "configuration.signing.keyPairs", \.keys),
        .list("salt", ["WEBIMAGE_SALT", "IMGPROXY_SALT"], "Signing salt in hex (repeatable).",
              valueName: "HEX", field: "configuration.signing.keyPairs", \.salts),
        .number("signature-size", ["WEBIMAGE_SIGNATURE_SIZE", "IMGPROXY_SIGNATURE_SIZE"],
                "Bytes of the HMAC a signature keeps.", field: "configuration.signing.signatureSize",
                \.configuration.signing.signatureSize, maximum: 32),
        .toggle("allow-unsigned", ["WEBIMAGE_ALLOW_UNSIGNED"], "Accept unsigned URLs ('_' or 'unsafe' as the signature).",
                field: "configuration.signing.allowsUnsigned", \.configuration.signing.allowsUnsigned),
        ServeOption(name: "secret", variables: ["WEBIMAGE_SECRET", "IMGPROXY_SECRET"], kind: .value("TOKEN"),
                    help: "Answer image and info requests only with 'Authorization: Bearer TOKEN' (others: 403); "
                        + "prefer the variable, as arguments are visible to every user of the machine. Default: none.",
                    field: "configuration.signing.secret") { settings, given in
            guard !given.text.isEmpty, given.text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                // Not `given.failure`: that repeats the value, and this one is a secret.
                throw CLIFailure(subject: given.origin, reason: "give a token of printable ASCII characters without spaces")
            }
            settings.configuration.signing.secret = given.text
        },
    ]

    static let limits: [ServeOption] = [
        .number("max-src-bytes", ["WEBIMAGE_MAX_SRC_BYTES", "IMGPROXY_MAX_SRC_FILE_SIZE"],
                "Largest source accepted, in bytes.", field: "configuration.limits.maxSourceBytes",
                \.configuration.limits.maxSourceBytes, maximum: ServeOption.maxBytes),
        ServeOption(name: "max-src-megapixels", variables: ["WEBIMAGE_MAX_SRC_MEGAPIXELS", "IMGPROXY_MAX_SRC_RESOLUTION"],
                    kind: .value("N"), help: "Largest source resolution, in megapixels (decimals allowed). Default 50.",
                    field: "configuration.limits.maxSourcePixels") { settings, given in
            guard let megapixels = Double(given.text), megapixels > 0, megapixels <= 1_000_000 else {
                throw given.failure("give a positive number of at most 1000000")
            }
            settings.maxSourceMegapixels = megapixels
        },
        .toggle("allow-security-options", ["WEBIMAGE_ALLOW_SECURITY_OPTIONS", "IMGPROXY_ALLOW_SECURITY_OPTIONS"],
                "Accept imgproxy's per-URL security options (max_src_resolution, …), which can only lower these limits.",
                field: "configuration.limits.allowsSecurityOptions", \.configuration.limits.allowsSecurityOptions),
        .number("max-animation-frames", ["WEBIMAGE_MAX_ANIMATION_FRAMES", "IMGPROXY_MAX_ANIMATION_FRAMES"],
                "Frames of an animation processed, the first ones; 1 makes every animation a still, as imgproxy.",
                field: "configuration.limits.maxAnimationFrames", \.configuration.limits.maxAnimationFrames,
                maximum: 100_000),
        ServeOption(name: "max-animation-frame-megapixels",
                    variables: ["WEBIMAGE_MAX_ANIMATION_FRAME_MEGAPIXELS", "IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION"],
                    kind: .value("N"),
                    help: "Largest frame of an animation, in megapixels; 0 counts the frames processed together "
                        + "against --max-src-megapixels. Default 0.",
                    field: "configuration.limits.maxAnimationFramePixels") { settings, given in
            guard let megapixels = Double(given.text), megapixels >= 0, megapixels <= 1_000_000 else {
                throw given.failure("give a number from 0 to 1000000")
            }
            settings.configuration.limits.maxAnimationFramePixels = Int(megapixels * 1_000_000)
        },
        .number("max-output-side", ["WEBIMAGE_MAX_OUTPUT_SIDE", "IMGPROXY_MAX_RESULT_DIMENSION"],
                "Largest width or height of a result (larger: scaled down).",
                field: "configuration.limits.maxOutputSide", \.configuration.limits.maxOutputSide, maximum: 65_535),
        .number("max-output-pixels", ["WEBIMAGE_MAX_OUTPUT_PIXELS"], "Most pixels of a result (more: scaled down).",
                field: "configuration.limits.maxOutputPixels", \.configuration.limits.maxOutputPixels),
    ]

    static let timeouts: [ServeOption] = [
        .duration("download-timeout", ["WEBIMAGE_DOWNLOAD_TIMEOUT", "IMGPROXY_DOWNLOAD_TIMEOUT"],
                  "Most a whole source download may take, in seconds (then 504).",
                  field: "configuration.timeouts.download", \.configuration.timeouts.download),
        .duration("download-idle-timeout", ["WEBIMAGE_DOWNLOAD_IDLE_TIMEOUT"],
                  "Most a source may stay silent, in seconds (then 504).",
                  field: "configuration.timeouts.downloadIdle", \.configuration.timeouts.downloadIdle),
        .duration("processing-timeout", ["WEBIMAGE_PROCESSING_TIMEOUT", "IMGPROXY_TIMEOUT"],
                  "Most a request may take from its arrival, queue and download included, in seconds (then 503).",
                  field: "configuration.timeouts.processing", \.configuration.timeouts.processing),
    ]

    static let caches: [ServeOption] = [
        ServeOption(name: "cache-dir", variables: ["WEBIMAGE_CACHE_DIR"], kind: .value("DIR"),
                    help: "Directory of the source and result caches. Default ~/.cache/SwiftWebImage/serve.",
                    field: "configuration.caches.directory") { settings, given in
            settings.configuration.caches.directory = URL(fileURLWithPath: given.text)
        },
        .number("memory-cache-bytes", ["WEBIMAGE_MEMORY_CACHE_BYTES"], "Bytes of encoded results kept in memory.",
                field: "configuration.caches.memoryBytes", \.configuration.caches.memoryBytes,
                maximum: ServeOption.maxBytes),
        .number("disk-cache-bytes", ["WEBIMAGE_DISK_CACHE_BYTES"], "Bytes each disk cache (sources, results) may take.",
                field: "configuration.caches.diskBytes", \.configuration.caches.diskBytes, maximum: ServeOption.maxBytes),
        .duration("revalidate-sources-after", ["WEBIMAGE_REVALIDATE_SOURCES_AFTER"],
                  "Seconds a cached source is used before its origin is asked (ETag/Last-Modified) whether it changed; "
                      + "0: every time.",
                  field: "configuration.caches.revalidateSourcesAfter", \.configuration.caches.revalidateSourcesAfter,
                  minimum: 0),
    ]

    static let concurrency: [ServeOption] = [
        .number("workers", ["WEBIMAGE_WORKERS", "IMGPROXY_WORKERS"], "Requests processed at once.",
                field: "configuration.concurrency.workers", \.configuration.concurrency.workers, maximum: 1024,
                defaultText: "the number of cores"),
        ServeOption(name: "queue", variables: ["WEBIMAGE_QUEUE"], kind: .value("N"),
                    help: "Requests waiting for a worker before 429. Default 2 × workers.",
                    field: "configuration.concurrency.queueSize") { settings, given in
            settings.queue = try ServeOption.wholeNumber(given, minimum: 0, maximum: ServeOption.maxSetting)
        },
        .number("retry-after", ["WEBIMAGE_RETRY_AFTER"], "The Retry-After of a 429, in seconds.",
                field: "configuration.concurrency.retryAfterSeconds", \.configuration.concurrency.retryAfterSeconds),
    ]

    static let processing: [ServeOption] = [
        .list("preset", ["WEBIMAGE_PRESETS", "IMGPROXY_PRESETS"],
              "A named option list for preset:NAME (repeatable); one named default applies to every URL first.",
              valueName: "NAME=OPTIONS", field: "configuration.processing.presets", \.presets),
        ServeOption(name: "presets-file", variables: ["WEBIMAGE_PRESETS_PATH", "IMGPROXY_PRESETS_PATH"],
                    kind: .value("FILE"),
                    help: "A file of presets, one NAME=OPTIONS a line (blank lines and lines starting with # are "
                        + "skipped), added to --preset's. Default: none.",
                    field: "configuration.processing.presets") { settings, given in
            settings.presets += try ServeSettings.presetLines(given)
        },
        ServeOption(name: "watermark-path", variables: ["WEBIMAGE_WATERMARK_PATH", "IMGPROXY_WATERMARK_PATH"],
                    kind: .value("FILE"), help: "The image watermark:… draws (at most 10 MB and 16 MP). Default: none.",
                    field: "configuration.processing.watermark") { settings, given in
            let bytes = try ServeOptions.imageBytes(given, base64: false)
            settings.configuration.processing.watermark = try ServeOptions.watermark(bytes, given: given)
        },
        ServeOption(name: "watermark-data", variables: ["WEBIMAGE_WATERMARK_DATA", "IMGPROXY_WATERMARK_DATA"],
                    kind: .value("BASE64"), help: "The watermark image as base64, instead of a file. Default: none.",
                    field: "configuration.processing.watermark") { settings, given in
            let bytes = try ServeOptions.imageBytes(given, base64: true)
            settings.configuration.processing.watermark = try ServeOptions.watermark(bytes, given: given)
        },
        ServeOption(name: "watermark-url", variables: ["WEBIMAGE_WATERMARK_URL", "IMGPROXY_WATERMARK_URL"],
                    kind: .value("URL"),
                    help: "The watermark image downloaded at start-up (http or https, at most 10 MB, within 10 s), "
                        + "when neither --watermark-path nor --watermark-data gives one. Default: none.",
                    field: "watermarkSource") { settings, given in
            settings.watermarkSource = try OperatorImageSource(given)
        },
        ServeOption(name: "watermark-opacity", variables: ["WEBIMAGE_WATERMARK_OPACITY", "IMGPROXY_WATERMARK_OPACITY"],
                    kind: .value("N"), help: "Multiplies every watermark's opacity (0-1). Default 1.",
                    field: "configuration.processing.watermarkOpacity") { settings, given in
            guard let opacity = Double(given.text), (0...1).contains(opacity) else { throw given.failure("give 0 to 1") }
            settings.configuration.processing.watermarkOpacity = opacity
        },
        ServeOption(name: "fallback-image-path", variables: ["WEBIMAGE_FALLBACK_IMAGE_PATH", "IMGPROXY_FALLBACK_IMAGE_PATH"],
                    kind: .value("FILE"),
                    help: "An image answered, processed like the source, when a source is missing, failing, too slow "
                        + "or not an image (at most 10 MB). Default: none, the error.",
                    field: "configuration.processing.fallbackImage") { settings, given in
            let bytes = try ServeOptions.imageBytes(given, base64: false)
            settings.configuration.processing.fallbackImage = try ServeOptions.checkedImage(bytes, given: given)
        },
        ServeOption(name: "fallback-image-data", variables: ["WEBIMAGE_FALLBACK_IMAGE_DATA", "IMGPROXY_FALLBACK_IMAGE_DATA"],
                    kind: .value("BASE64"), help: "The fallback image as base64, instead of a file. Default: none.",
                    field: "configuration.processing.fallbackImage") { settings, given in
            let bytes = try ServeOptions.imageBytes(given, base64: true)
            settings.configuration.processing.fallbackImage = try ServeOptions.checkedImage(bytes, given: given)
        },
        .invertible("strip-color-profile", ["WEBIMAGE_STRIP_COLOR_PROFILE", "IMGPROXY_STRIP_COLOR_PROFILE"],
                    "Convert results to sRGB without a profile unless the URL says strip_color_profile:false; "
                        + "--no-strip-color-profile keeps the source's profile unless it says true. Default on.",
                    field: "configuration.processing.stripsColorProfile", \.configuration.processing.stripsColorProfile),
        .invertible("auto-rotate", ["WEBIMAGE_AUTO_ROTATE", "IMGPROXY_AUTO_ROTATE"],
                    "Turn sources upright by their EXIF orientation unless the URL says auto_rotate:false; "
                        + "--no-auto-rotate keeps the stored pixels unless it says true. Default on.",
                    field: "configuration.processing.autoRotates", \.configuration.processing.autoRotates),
        .invertible("sanitize-svg", ["WEBIMAGE_SANITIZE_SVG", "IMGPROXY_SANITIZE_SVG"],
                    "Answer an SVG kept as SVG without scripts, handlers, foreignObject or external references; "
                        + "--no-sanitize-svg answers it as it came. Default on.",
                    field: "configuration.processing.sanitizesSVG", \.configuration.processing.sanitizesSVG),
        .invertible("always-rasterize-svg", ["WEBIMAGE_ALWAYS_RASTERIZE_SVG", "IMGPROXY_ALWAYS_RASTERIZE_SVG"],
                    "Rasterise an SVG whose URL names no format instead of answering it as SVG. Default off.",
                    field: "configuration.processing.alwaysRasterizesSVG", \.configuration.processing.alwaysRasterizesSVG),
        .toggle("enforce-thumbnail", ["WEBIMAGE_ENFORCE_THUMBNAIL", "IMGPROXY_ENFORCE_THUMBNAIL"],
                "Process an HEIC or AVIF source's embedded thumbnail unless the URL says enforce_thumbnail:false.",
                field: "configuration.processing.enforcesThumbnail", \.configuration.processing.enforcesThumbnail),
        ServeOption(name: "skip-processing-format",
                    variables: ["WEBIMAGE_SKIP_PROCESSING_FORMATS", "IMGPROXY_SKIP_PROCESSING_FORMATS"],
                    kind: .list("FORMAT"),
                    help: "A source format answered unprocessed when the URL names no other format (repeatable; a "
                        + "URL's skip_processing replaces the list). Default none.",
                    field: "configuration.processing.skipProcessingFormats") { settings, given in
            settings.configuration.processing.skipProcessingFormats = try Set(given.values.map { name in
                guard let format = ImageFormat(fileExtension: name.lowercased()), format != .undefined else {
                    throw CLIFailure(subject: given.origin, reason: "bad value '\(name)': give an image format (jpg, png, …)")
                }
                return format
            })
        },
        ServeOption(name: "fallback-image-url", variables: ["WEBIMAGE_FALLBACK_IMAGE_URL", "IMGPROXY_FALLBACK_IMAGE_URL"],
                    kind: .value("URL"),
                    help: "The fallback image downloaded at start-up (http or https, at most 10 MB, within 10 s), "
                        + "when neither --fallback-image-path nor --fallback-image-data gives one. Default: none.",
                    field: "fallbackImageSource") { settings, given in
            settings.fallbackImageSource = try OperatorImageSource(given)
        },
        .toggle("only-presets", ["WEBIMAGE_ONLY_PRESETS", "IMGPROXY_ONLY_PRESETS"],
                "Presets-only mode: a URL's options are one segment of :-separated preset names.",
                field: "configuration.processing.onlyPresets", \.configuration.processing.onlyPresets),
        .list("info-preset", ["WEBIMAGE_INFO_PRESETS", "IMGPROXY_INFO_PRESETS"],
              "A named info option list for /info's preset:NAME (repeatable); one named default applies to every "
                + "info URL first.",
              valueName: "NAME=OPTIONS", field: "configuration.info.presets", \.infoPresets),
        ServeOption(name: "info-presets-file", variables: ["WEBIMAGE_INFO_PRESETS_PATH", "IMGPROXY_INFO_PRESETS_PATH"],
                    kind: .value("FILE"),
                    help: "A file of info presets, one NAME=OPTIONS a line (blank lines and lines starting with # are "
                        + "skipped), added to --info-preset's. Default: none.",
                    field: "configuration.info.presets") { settings, given in
            settings.infoPresets += try ServeSettings.presetLines(given)
        },
        ServeOption(name: "info-only-presets", variables: ["WEBIMAGE_INFO_ONLY_PRESETS", "IMGPROXY_INFO_ONLY_PRESETS"],
                    kind: .invertible,
                    help: "Presets-only mode for /info: an info URL's options are one segment of :-separated info "
                        + "preset names. Default: as --only-presets.",
                    field: "configuration.info.onlyPresets") { settings, given in
            settings.configuration.info.onlyPresets = given.text == "true"
        },
        .list("allowed-info-option", ["WEBIMAGE_ALLOWED_INFO_OPTIONS", "IMGPROXY_ALLOWED_INFO_OPTIONS"],
              "An info option name an info URL may use itself (repeatable; give full and short names each); "
                + "presets are not held to it. Default: all.",
              valueName: "NAME", field: "configuration.info.allowedOptions", \.configuration.info.allowedOptions)
        { name in InfoOptionNames.all.contains(name) ? nil : "not an info option" },
        .invertible("strip-metadata", ["WEBIMAGE_STRIP_METADATA", "IMGPROXY_STRIP_METADATA"],
                    "Drop the source's metadata from results unless the URL says strip_metadata:false; "
                        + "--no-strip-metadata keeps it (EXIF orientation 1) unless the URL says true. Default on.",
                    field: "configuration.processing.stripsMetadata", \.configuration.processing.stripsMetadata),
        .invertible("keep-copyright", ["WEBIMAGE_KEEP_COPYRIGHT", "IMGPROXY_KEEP_COPYRIGHT"],
                    "When stripping metadata keep the copyright (EXIF Artist and Copyright, IPTC by-line, credit "
                        + "and copyright notice, XMP dc, xmpRights and cc) unless the URL says keep_copyright:false; "
                        + "--no-keep-copyright drops it unless the URL says true. Default on.",
                    field: "configuration.processing.keepsCopyright", \.configuration.processing.keepsCopyright),
        .number("quality", ["WEBIMAGE_QUALITY", "IMGPROXY_QUALITY"],
                "Quality when the URL gives none and --format-quality has none for the format (1-100).",
                field: "configuration.processing.defaultQuality", \.configuration.processing.defaultQuality,
                maximum: 100),
        .formatQualities("format-quality", ["WEBIMAGE_FORMAT_QUALITY", "IMGPROXY_FORMAT_QUALITY"],
                         "Quality of one output format when the URL gives none (repeatable); replaces that format's "
                            + "default. Default webp=79, avif=63, jxl=77.",
                         field: "configuration.processing.formatQuality", \.configuration.processing.formatQuality),
    ]

    static let responses: [ServeOption] = [
        .toggle("no-negotiation", ["WEBIMAGE_NO_NEGOTIATION"], "Never choose the format from Accept (no Vary: Accept).",
                field: "configuration.responses.negotiation", \.configuration.responses.negotiatesFormat, sets: false),
        negotiation("webp", auto: ["IMGPROXY_AUTO_WEBP", "IMGPROXY_ENABLE_WEBP_DETECTION"], \.webp),
        negotiation("avif", auto: ["IMGPROXY_AUTO_AVIF", "IMGPROXY_ENABLE_AVIF_DETECTION"], \.avif),
        negotiation("jxl", auto: ["IMGPROXY_AUTO_JXL"], \.jxl),
        enforcement("webp", \.webp),
        enforcement("avif", \.avif),
        enforcement("jxl", \.jxl),
        ServeOption(name: "preferred-format", variables: ["WEBIMAGE_PREFERRED_FORMATS", "IMGPROXY_PREFERRED_FORMATS"],
                    kind: .list("FORMAT"),
                    help: "A format results are answered in when neither the URL nor Accept names one (repeatable, "
                        + "in order): a source in one keeps it, any other gets the first that holds the result. "
                        + "Default jpeg, png, gif.", field: "configuration.responses.preferredFormats") { settings, given in
            settings.configuration.responses.preferredFormats = try given.values.map { name in
                guard let format = ImageFormat(fileExtension: name), CodersManager.shared.canEncode(to: format) else {
                    throw CLIFailure(subject: given.origin, reason: "bad value '\(name)': give formats the service writes "
                                     + "(jpeg, png, gif, webp, avif, jxl, heic, tiff, bmp, ico)")
                }
                return format
            }
        },
        .number("ttl", ["WEBIMAGE_TTL", "IMGPROXY_TTL"], "max-age of successful answers, in seconds.",
                field: "configuration.responses.cacheTTL", \.configuration.responses.cacheTTL),
        .number("error-ttl", ["WEBIMAGE_ERROR_TTL"], "max-age of 5xx answers, in seconds.",
                field: "configuration.responses.errorCacheTTL", \.configuration.responses.errorCacheTTL, minimum: 0),
        .number("fallback-image-status", ["WEBIMAGE_FALLBACK_IMAGE_HTTP_CODE", "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE"],
                "The status of a fallback image's answer; 0: the error's own.",
                field: "configuration.responses.fallbackStatus", \.configuration.responses.fallbackStatus,
                minimum: 0, maximum: 599),
        ServeOption(name: "fallback-image-ttl", variables: ["WEBIMAGE_FALLBACK_IMAGE_TTL", "IMGPROXY_FALLBACK_IMAGE_TTL"],
                    kind: .value("N"), help: "max-age of a fallback image's answer, in seconds. Default: --ttl's.",
                    field: "configuration.responses.fallbackTTL") { settings, given in
            settings.configuration.responses.fallbackTTL = try ServeOption.wholeNumber(given, minimum: 0,
                                                                                       maximum: ServeOption.maxSetting)
        },
    ]
}
