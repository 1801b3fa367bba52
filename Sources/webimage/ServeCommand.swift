import ArgumentParser
import Foundation
import Metrics
import Prometheus
import ServiceLifecycle
import WebImage
import WebImageServer

/// `webimage serve`: the image service (imgproxy-compatible URLs) on Hummingbird, until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve resized and converted images from signed imgproxy-style URLs.",
        discussion: ServeHelp.text)

    /// Read against ``ServeOptions/all`` rather than declared here, so each option is declared once.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The options below.", valueName: "options"))
    var options: [String] = []

    func run() async throws {
        // Passed through with the options, so answered here.
        if options.contains("--help") || options.contains("-h") {
            print(WebImageCommand.helpMessage(for: Self.self))
            return
        }
        var settings: ServeSettings
        do {
            settings = try makeSettings(environment: ProcessInfo.processInfo.environment)
            try await settings.downloadOperatorImages()
        } catch {
            Console.error(CLIFailure(subject: "serve", error: error).description)
            throw ExitCode.failure
        }
        var metrics: (registry: PrometheusCollectorRegistry, host: String, port: Int)?
        if let address = settings.metricsBind {
            // Bootstrapped before the proxy exists, so every component's default factory is Prometheus'.
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            metrics = (registry, address.host, address.port)
        }
        settings.startLogging()
        // The configuration was made before the bootstraps: it takes the factory and the handler now.
        settings.configuration.instrumentation = Instrumentation(label: "SwiftWebImage.serve",
                                                                 metricsFactory: MetricsSystem.factory)
        for variable in settings.ignoredVariables {
            settings.configuration.instrumentation.logger.warning(
                "ignored: webimage serve has no setting with this meaning", metadata: ["variable": "\(variable)"])
        }
        let tracing: (any Service)?
        do {
            tracing = try ServeTracing.bootstrap(settings, environment: ProcessInfo.processInfo.environment,
                                                 logger: settings.configuration.instrumentation.logger)
        } catch {
            Console.error(CLIFailure(subject: "--tracing", error: error).description)
            throw ExitCode.failure
        }
        let proxy = ImageProxy(configuration: settings.configuration)
        let server = ImageProxyServer(proxy: proxy, host: settings.bind.host, port: settings.bind.port,
                                      drainTimeout: settings.drainTimeout, metrics: metrics,
                                      operatorPage: settings.servesOperatorPage ? settings.operatorPage : nil,
                                      services: tracing.map { [$0] } ?? [],
                                      onListening: { Self.announce("listening on", host: $0, port: $1) },
                                      onMetricsListening: { Self.announce("metrics on", host: $0, port: $1) })
        do {
            try await server.run()
        } catch {
            Console.error(CLIFailure(subject: "serve", error: error).description)
            throw ExitCode.failure
        }
    }

    /// One line on standard output once a listener accepts connections, with its real port (port 0 picks one).
    private static func announce(_ what: String, host: String, port: Int) {
        let shown = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardOutput.write(Data("\(what) http://\(shown):\(port)\n".utf8))
    }

    /// Flags and environment checked and combined; throws one ``CLIFailure`` for the first bad value.
    func makeSettings(environment: [String: String]) throws -> ServeSettings {
        try ServeSettings(arguments: options, environment: environment)
    }
}
