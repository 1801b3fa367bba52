import Foundation
import Logging
import WebImageCLISupport

extension ServeOptions {
    /// The drain on SIGTERM and the logs.
    static let process: [ServeOption] = [
        .duration("drain-seconds", ["WEBIMAGE_DRAIN_SECONDS"],
                  "On SIGTERM/SIGINT, how long requests under way may finish, in seconds.", field: "drainTimeout",
                  \.drainTimeout, minimum: 0),
        ServeOption(name: "log-level", variables: ["WEBIMAGE_LOG_LEVEL", "IMGPROXY_LOG_LEVEL"], kind: .value("LEVEL"),
                    help: "What the server and library log on stderr, from this level up (the C libraries' own lines "
                        + "at debug). Default warning.",
                    field: "logLevel") { settings, given in
            let text = given.text.lowercased()
            guard let level = Logger.Level(rawValue: text == "warn" ? "warning" : text) else {
                let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw given.failure("give one of \(names)")
            }
            settings.logLevel = level
        },
        ServeOption(name: "log-format", variables: ["WEBIMAGE_LOG_FORMAT", "IMGPROXY_LOG_FORMAT"], kind: .value("FORMAT"),
                    help: "text, or json (one object per line), or gcp (json with Google Cloud's severity); imgproxy's "
                        + "pretty and structured are text. Default text.", field: "logFormat") { settings, given in
            let name = given.text.lowercased()
            guard let format = LogFormat(rawValue: ["pretty", "structured"].contains(name) ? "text" : name) else {
                throw given.failure("give text, json or gcp")
            }
            settings.logFormat = format
        },
        .invertible("access-log", ["WEBIMAGE_ACCESS_LOG"],
                    "One info line per request on stderr (logger SwiftWebImage.serve.access); --no-access-log "
                        + "turns it off. Default on.",
                    field: "accessLog", \.accessLog),
    ]

    /// Spans over OTLP (imgproxy's `IMGPROXY_OPEN_TELEMETRY_*`), set up by `ServeTracing`.
    static let tracing: [ServeOption] = [
        .toggle("tracing", ["WEBIMAGE_TRACING", "IMGPROXY_OPEN_TELEMETRY_ENABLE"],
                "Export spans over OTLP/HTTP to the OTEL_EXPORTER_OTLP_* endpoint (default http://localhost:4318); "
                    + "the OTEL_* variables configure the exporter.",
                field: "tracing", \.tracing),
        ServeOption(name: "otlp-endpoint", variables: ["WEBIMAGE_OTLP_ENDPOINT"], kind: .value("URL"),
                    help: "Export spans to this OTLP/HTTP base URL (spans go to URL/v1/traces); turns --tracing on. "
                        + "Default: OTEL_EXPORTER_OTLP_ENDPOINT.", field: "otlpEndpoint") { settings, given in
            guard let url = URL(string: given.text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host?.isEmpty == false else {
                throw given.failure("give an http or https URL")
            }
            settings.otlpEndpoint = given.text
        },
        .invertible("propagate-trace-context", ["WEBIMAGE_PROPAGATE_TRACE_CONTEXT",
                                                "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL"],
                    "Send the trace context (traceparent, tracestate) to http, https and S3 origins. Default off.",
                    field: "configuration.sources.propagatesTraceContext",
                    \.configuration.sources.propagatesTraceContext),
    ]
}
