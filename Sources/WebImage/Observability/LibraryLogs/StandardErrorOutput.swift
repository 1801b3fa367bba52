#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the process's own lines for standard error go (log records, `webimage`'s one-line failures, progress
/// bars): descriptor 2, or while ``LibraryLogs`` captures descriptor 2, the stream it was before. Each call is one
/// write under a lock, so lines of several threads never interleave.
public enum StandardErrorOutput {
    private static let descriptor = Mutex<Int32>(STDERR_FILENO)

    /// Writes `text` as it is (the caller ends it with its line break).
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` as they are, in one call (the caller ends them with its line break).
    public static func write(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        descriptor.withLock { descriptor in
            var offset = 0
            while offset < bytes.count {
                let written = writeDescriptor(descriptor, base + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Whether it is a terminal.
    public static var isTerminal: Bool {
        isatty(descriptor.withLock { $0 }) == 1
    }

    /// A stream writing here, for swift-log's `StreamLogHandler(label:stream:)`.
    public struct Stream: TextOutputStream, Sendable {
        public init() {}

        public mutating func write(_ string: String) {
            StandardErrorOutput.write(string)
        }
    }

    /// Sends what follows to `descriptor` (the capture's copy of the original stream).
    static func redirect(to descriptor: Int32) {
        self.descriptor.withLock { $0 = descriptor }
    }
}

/// `write(2)`, out of reach of the methods named `write` above.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
