import Logging
import WebImageCLISupport
import WebImageServer

extension ServeSettings {
    /// Routes every logger to stderr at ``logLevel`` and gives the proxy its access logger: on stderr at
    /// `info` whatever ``logLevel`` is, since asking for access lines means wanting them.
    mutating func startLogging() {
        LoggingBootstrap.run(level: logLevel, format: logFormat)
        guard accessLog else { return }
        var logger = Logger(label: ImageProxy.accessLoggerLabel) { [logFormat] in logFormat.handler(label: $0) }
        logger.logLevel = .info
        configuration.accessLogger = logger
    }
}
