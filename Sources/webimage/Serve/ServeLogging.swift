import Logging
import WebImageCLISupport
import WebImageServer

extension ServeSettings {
    /// Routes every logger to stderr at ``logLevel`` and gives the proxy its access logger: on stderr at
    /// `info` whatever ``logLevel`` is, since asking for access lines means wanting them. In text, its handler
    /// writes the request lines itself (the same lines, at a fraction of the cost).
    mutating func startLogging() {
        LoggingBootstrap.run(level: logLevel, format: logFormat)
        guard accessLog else { return }
        var logger = Logger(label: ImageProxy.accessLoggerLabel) { [logFormat] label in
            logFormat == .text ? AccessLineHandler(label: label) : logFormat.handler(label: label)
        }
        logger.logLevel = .info
        configuration.accessLogger = logger
    }
}
