#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Metrics
import Synchronization
import WebImageCodecs

/// What the C libraries write about their work, as records of the program's log: the messages their hooks hand
/// over (``LibraryMessages``: GLib's log writer for librsvg with pango and cairo and for poppler, lcms2's error
/// handler), and whatever else reaches standard error (libjxl's failure traces, dav1d's messages: libavif 0.11
/// gives no access to dav1d's logger; libjpeg's warnings inside poppler) through a capture of descriptor 2.
/// libtiff's messages never get there: its per-handle handlers make them the decode's error.
///
/// Both hooks are the process's, so the program installs them, once: `webimage` and its service do; importing
/// `WebImage` changes nothing. Each line is a `debug` record with its library as the `library` metadata, cut to
/// a bounded length and rate-limited (``LibraryLogLimits``); the lines past the rate are counted in
/// ``WebImageMetrics/libraryLogLinesDropped`` instead.
public enum LibraryLogs {
    private struct State {
        var capture: StandardErrorCapture?
        var finishesAtExit = false
    }

    private static let state = Mutex(State())

    /// The label of the logger ``install(logger:limits:metricsFactory:)`` logs with unless given another.
    public static let loggerLabel = "SwiftWebImage.libraries"

    /// Installs both hooks; while they are installed a second call changes nothing. The program's own lines must
    /// then be written through ``StandardErrorOutput`` (anything else written on descriptor 2 is logged as a
    /// library's line). The lines already written when the process exits are logged before it does (a second at
    /// most). Throws when descriptor 2 cannot be replaced; the hooks' messages are routed all the same.
    public static func install(logger: Logger = Logger(label: loggerLabel), limits: LibraryLogLimits = LibraryLogLimits(),
                               metricsFactory: any MetricsFactory = MetricsSystem.factory) throws {
        try state.withLock { state in
            guard state.capture == nil else { return }
            let recorder = LibraryLogRecorder(logger: logger, limits: limits, metricsFactory: metricsFactory)
            LibraryMessages.route { recorder.record($0) }
            GLibLogWriter.install()
            state.capture = try StandardErrorCapture(maxLineBytes: limits.maxLineBytes) { line in
                recorder.record(CapturedLineOrigin.message(line))
            }
            if !state.finishesAtExit {
                atexit { LibraryLogs.finish() }
                state.finishesAtExit = true
            }
        }
    }

    /// Ends the capture: descriptor 2 is the original stream again, once the lines already written are logged
    /// (waiting up to `timeout`). Runs at exit by itself. The hooks' messages stay routed (GLib takes one writer
    /// per process); a later ``install(logger:limits:metricsFactory:)`` captures again.
    public static func finish(waitingUpTo timeout: Duration = .seconds(1)) {
        let capture = state.withLock { state in
            defer { state.capture = nil }
            return state.capture
        }
        capture?.stop(waitingUpTo: timeout)
    }

    /// The standard error for a child process: this process's descriptor 2 while it is captured (the child's
    /// lines are then logged here as a library's), else -1 (`/dev/null`: never the raw stream).
    public static var standardErrorForChildren: Int32 {
        state.withLock { $0.capture == nil ? -1 : 2 }
    }
}
