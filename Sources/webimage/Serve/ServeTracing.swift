import Logging
import OTel
import ServiceLifecycle
import Tracing

/// `webimage serve`'s span export (`--tracing`, `--otlp-endpoint`): swift-otel's tracer bootstrapped as
/// swift-distributed-tracing's global one, exporting over OTLP/HTTP, with its exporter a service beside the server.
/// The OTEL_* variables configure it as any OpenTelemetry SDK (endpoint, headers, protocol, sampler, service name);
/// logs and metrics stay where `serve` sends them (stderr, Prometheus).
enum ServeTracing {
    /// The exporter's service, once the tracer is bootstrapped; nil when tracing is off (the no-op tracer stays).
    static func bootstrap(_ settings: ServeSettings, environment: [String: String], logger: Logger) throws -> (any Service)? {
        guard settings.tracing || settings.otlpEndpoint != nil else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "webimage"
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        return try OTel.bootstrap(configuration: configuration, environment: exporterEnvironment(settings, environment))
    }

    /// The environment swift-otel reads: `--otlp-endpoint` in place of the OTEL_* endpoints, and imgproxy's protocol
    /// names (`http`, `https`) as the standard `http/protobuf`.
    static func exporterEnvironment(_ settings: ServeSettings, _ environment: [String: String]) -> [String: String] {
        var environment = environment
        if let endpoint = settings.otlpEndpoint {
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
            environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        }
        for key in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"]
        where ["http", "https"].contains(environment[key]?.lowercased()) {
            environment[key] = "http/protobuf"
        }
        return environment
    }
}
