import Hummingbird
import Prometheus
import ServiceLifecycle

/// The metrics listener: a registry's Prometheus text exposition at `GET /metrics`, apart from the image
/// routes so it can be bound to an address only the scraper reaches.
enum MetricsEndpoint {
    static func application(registry: PrometheusCollectorRegistry, host: String, port: Int) -> some Service {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        var application = Application(router: router, server: .http1RequiringHost(),
                                      configuration: ApplicationConfiguration(address: .hostname(host, port: port)))
        application.logger.logLevel = .warning
        return application
    }
}
