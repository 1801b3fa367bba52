import CRSVG
import Synchronization

/// GLib's log writer, for the libraries over GLib: librsvg (with pango and cairo) and poppler-glib. Without one,
/// GLib's default writer prints warnings and criticals on standard error, in its own format; poppler reports
/// each damaged part of a PDF as an info message, which that writer prints only under `G_MESSAGES_DEBUG`.
public enum GLibLogWriter {
    private static let installed = Mutex(false)

    /// Sends every message GLib logs in this process, whatever its domain and level, to ``LibraryMessages``
    /// instead of GLib's default writer. GLib takes one writer per process and only from the program, never from
    /// a library: the app calls this (`webimage` and its service do, through `LibraryLogs`); later calls do
    /// nothing.
    public static func install() {
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if first { g_log_set_writer_func(writer, nil, nil) }
    }

    private static let writer: GLogWriterFunc = { _, fields, count, _ in
        guard let fields else { return G_LOG_WRITER_HANDLED }
        var domain = "glib", text = ""
        for field in UnsafeBufferPointer(start: fields, count: Int(count)) {
            switch field.key.map({ String(cString: $0) }) {
            case "MESSAGE": text = GLibLogWriter.value(field)
            case "GLIB_DOMAIN": domain = GLibLogWriter.value(field).lowercased()
            default: continue
            }
        }
        while text.last?.isNewline == true { text.removeLast() }
        LibraryMessages.send(LibraryLogMessage(library: domain, text: text))
        return G_LOG_WRITER_HANDLED
    }

    /// A field's value as text: a C string when its length is -1, else that many bytes (invalid UTF-8 replaced).
    private static func value(_ field: GLogField) -> String {
        guard let value = field.value else { return "" }
        if field.length < 0 { return String(cString: value.assumingMemoryBound(to: CChar.self)) }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
    }
}
