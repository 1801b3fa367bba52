import Synchronization

/// Where the messages the C libraries hand to a hook go (GLib's writer, lcms2's error handler): nowhere until the
/// program routes them (`LibraryLogs` does, to its log), so a library used inside an app prints nothing.
public enum LibraryMessages {
    private static let handler = Mutex<(@Sendable (LibraryLogMessage) -> Void)?>(nil)

    /// Sends every message from now on to `handler`, on the thread that reported it, inside the library's call.
    public static func route(to handler: @escaping @Sendable (LibraryLogMessage) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    static func send(_ message: LibraryLogMessage) {
        handler.withLock { $0 }?(message)
    }
}
