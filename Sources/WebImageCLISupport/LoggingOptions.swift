import ArgumentParser
import Logging
import Synchronization
import WebImage
import WebImageLogging

/// `--log-level LEVEL`: what the library logs (swift-log) on stderr; the C libraries' own lines (libjxl's
/// failure traces, GLib's warnings) from `debug`.
///
/// Default `error`: the commands report each failed URL themselves, so the library's warnings (a 404, bytes
/// that do not decode) would only repeat them; disk write failures still show.
package struct LoggingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("What the library logs on stderr, from this level up (the C libraries' own lines at debug).",
                               valueName: "LEVEL"))
    package var logLevel: Logger.Level = .error

    package init() {}

    /// Routes every logger made from now on to stderr at ``logLevel``. Call it first in `run()`: the library's
    /// components take their logger when their configuration is made.
    package func bootstrap() {
        LoggingBootstrap.run(level: logLevel)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// How log lines are written on stderr (`webimage serve --log-format`, imgproxy's `IMGPROXY_LOG_FORMAT`).
package enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's text lines, through ``EscapingLogHandler``.
    case text
    /// One JSON object per line (``JSONLogHandler``).
    case json
    /// JSON with Google Cloud Logging's `severity`.
    case gcp

    /// A handler for `label` in this format; every value from outside stays on its line.
    package func handler(label: String) -> any LogHandler {
        switch self {
        case .text: EscapingLogHandler(StreamLogHandler(label: label, stream: StandardErrorOutput.Stream()))
        case .json: JSONLogHandler(label: label)
        case .gcp: JSONLogHandler(label: label, style: .gcp)
        }
    }
}

/// Bootstraps swift-log at most once per process: a second `LoggingSystem.bootstrap` is a crash. URLs and
/// error texts from outside cannot forge lines, in any ``LogFormat``; nor can the C libraries, whose lines
/// become `debug` records of the same log (``LibraryLogs``, installed here).
package enum LoggingBootstrap {
    private static let done = Mutex(false)

    package static func run(level: Logger.Level, format: LogFormat = .text) {
        done.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in
                var handler = format.handler(label: label)
                handler.logLevel = level
                return handler
            }
            do {
                try LibraryLogs.install()
            } catch {
                Logger(label: LibraryLogs.loggerLabel).warning("the C libraries' output stays unlogged: \(error)")
            }
        }
    }
}
