import Hummingbird
import NIOCore
import Prometheus
import ServiceLifecycle
import UnixSignals

/// Runs an ``ImageProxy`` as an HTTP server until a signal (or ``triggerGracefulShutdown()``) stops it:
/// then `/ready` answers 503 and new work is refused at once, the listeners stay open while results begun
/// before are still being made (so readiness probes see the 503 rather than a refused connection), then they
/// stop accepting connections; all of it, requests under way included, gets up to `drainTimeout`, and the
/// proxy's downloader and workers are released.
public final class ImageProxyServer: Sendable {
    let proxy: ImageProxy
    let group: ServiceGroup

    /// A server for `proxy` on `host`:`port` (0 picks a free port); `onListening` gets the host and the real
    /// port once connections are accepted. `signals` start the graceful shutdown (default SIGTERM and SIGINT);
    /// `drainTimeout` bounds it (default 20 s), after which remaining requests are cancelled. A connection
    /// idle for `idleTimeout` (no request under way) is closed (default 30 s).
    ///
    /// Requests without a proper `Host` header are answered 400 before routing (``HostHeaderCheck``).
    ///
    /// With `metrics`, requests are counted and timed by ``RequestMetricsMiddleware`` and the registry is
    /// served in Prometheus' text format at `GET /metrics` on its own listener (bootstrap swift-metrics with a
    /// `PrometheusMetricsFactory` over the same registry before making the proxy, so the pipeline's metrics
    /// land there too). With `operatorPage` too, that listener also serves the ``OperatorPage`` at `/`. Its port
    /// may be 0 too: `onMetricsListening` gets the host and the real port once it accepts connections.
    ///
    /// `services` run beside the server and stop after it (a span exporter then sends the last spans).
    public init(proxy: ImageProxy, host: String, port: Int, drainTimeout: Duration = .seconds(20),
                idleTimeout: Duration = .seconds(30), signals: [UnixSignal] = [.sigterm, .sigint],
                metrics: (registry: PrometheusCollectorRegistry, host: String, port: Int)? = nil,
                operatorPage: OperatorPage? = nil, services: [any Service] = [],
                onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void = { _, _ in },
                onMetricsListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void = { _, _ in }) {
        self.proxy = proxy
        let listener = ImageListener(host: host, port: port)
        let router = Router(context: ImageProxyRequestContext.self)
        let requestMetrics = metrics.map { _ in RequestMetricsMiddleware<ImageProxyRequestContext>() }
        if let requestMetrics { router.add(middleware: requestMetrics) }
        proxy.addRoutes(to: router)
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000
                                          + idleTimeout.components.attoseconds / 1_000_000_000)
        var application = Application(responder: ImageRouteResponder(router: router.buildResponder(), proxy: proxy,
                                                                     metrics: requestMetrics),
                                      server: .http1RequiringHost(idleTimeout: idle),
                                      configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
                                      onServerRunning: { channel in
                                          let real = channel.localAddress?.port ?? port
                                          listener.listening(on: real)
                                          onListening(host, real)
                                      })
        application.logger.logLevel = .warning
        // A group stops its services in reverse order, each after the one before has ended: the drain notice
        // first (appended last, below), the given ones last.
        var services = services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
            + [ServiceGroupConfiguration.ServiceConfiguration(service: application)]
        if let metrics {
            let routes = operatorPage.map { page in
                proxy.recentRequests.startRecording()
                let history = OperatorHistory(capacity: page.historyLength)
                services.append(.init(service: OperatorSampler(proxy: proxy, history: history, interval: page.sampleInterval)))
                return OperatorRoutes(proxy: proxy, page: page, history: history, image: listener,
                                      hosts: OperatorHosts(listenerHost: metrics.host, publicBaseURL: page.publicBaseURL))
            }
            services.append(.init(service: MetricsEndpoint.application(registry: metrics.registry, host: metrics.host,
                                                                       port: metrics.port, operatorRoutes: routes) { real in
                onMetricsListening(metrics.host, real)
            }))
        }
        services.append(.init(service: DrainNotice(proxy: proxy)))
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals,
                                                      logger: application.logger)
        configuration.maximumGracefulShutdownDuration = drainTimeout
        group = ServiceGroup(configuration: configuration)
    }

    /// Serves until shut down, then releases the proxy.
    public func run() async throws {
        do {
            try await group.run()
        } catch {
            await proxy.shutdown()
            throw error
        }
        await proxy.shutdown()
    }

    /// Starts the graceful shutdown, as SIGTERM does.
    public func triggerGracefulShutdown() async {
        await group.triggerGracefulShutdown()
    }
}

/// Turns `/ready` false and refuses new work as soon as the graceful shutdown starts, then ends once the
/// results begun before are made: until then the group stops nothing else, so the listeners stay open.
private struct DrainNotice: Service {
    let proxy: ImageProxy

    func run() async throws {
        try? await gracefulShutdown()
        proxy.stopAccepting()
        // No result starts once stopping, so the count only falls; the group's drain deadline cancels the wait.
        while proxy.resultsInProgress > 0, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
