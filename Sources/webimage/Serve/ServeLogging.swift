import Logging
import WebImageServer

extension ServeSettings {
    /// `--log-level` (else `WEBIMAGE_LOG_LEVEL`) and `--access-log`/`--no-access-log` (else
    /// `WEBIMAGE_ACCESS_LOG`, 1 or 0), with their defaults: warning, on.
    mutating func readLogging(level: String?, accessLog: Bool?, from source: Source) throws {
        if let text = source.text(level, "WEBIMAGE_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: text.lowercased()) else {
                let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIFailure(subject: "--log-level", reason: "bad value '\(text)': give one of \(names)")
            }
            logLevel = parsed
        }
        if let accessLog {
            self.accessLog = accessLog
        } else if let text = source.text(nil, "WEBIMAGE_ACCESS_LOG") {
            switch text.lowercased() {
            case "1", "true", "yes": self.accessLog = true
            case "0", "false", "no": self.accessLog = false
            default: throw CLIFailure(subject: "WEBIMAGE_ACCESS_LOG", reason: "bad value '\(text)': give 1 or 0")
            }
        }
    }

    /// Routes every logger to stderr at ``logLevel`` and gives the proxy its access logger: on stderr at
    /// `info` whatever ``logLevel`` is, since asking for access lines means wanting them.
    mutating func startLogging() {
        LoggingBootstrap.run(level: logLevel)
        // Made with its configuration, before the bootstrap: again now, so it escapes and keeps the level too.
        if var shared = configuration.sharedCache {
            shared.logger = Logger(label: shared.logger.label)
            configuration.sharedCache = shared
        }
        guard accessLog else { return }
        var logger = Logger(label: ImageProxy.accessLoggerLabel) {
            EscapingLogHandler(StreamLogHandler.standardError(label: $0))
        }
        logger.logLevel = .info
        configuration.accessLogger = logger
    }
}
