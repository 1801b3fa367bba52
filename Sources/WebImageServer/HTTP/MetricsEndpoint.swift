import Hummingbird
import Prometheus
import ServiceLifecycle

/// The metrics listener: a registry's Prometheus text exposition at `GET /metrics`, and the operator page
/// (``OperatorRoutes``) when there is one, apart from the image routes so it can be bound to an address only
/// the scraper and the operators reach.
enum MetricsEndpoint {
    /// `onListening` gets the real port once it accepts connections (port 0 picks one).
    static func application(registry: PrometheusCollectorRegistry, host: String, port: Int,
                            operatorRoutes: OperatorRoutes? = nil,
                            onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> some Service {
        let router = Router()
        operatorRoutes?.add(to: router)
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        var application = Application(router: router, server: .http1RequiringHost(),
                                      configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
                                      onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) })
        application.logger.logLevel = .warning
        return application
    }
}
