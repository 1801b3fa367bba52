/// Bytes read from a stream, cut into lines: each line break ends one (`\r` before it dropped); a line longer than
/// `maxBytes` is handed on cut there and the rest of it, up to its line break, skipped, so what is kept stays
/// bounded whatever is written. Empty lines are skipped (GLib's writer puts one before each warning).
struct LineSplitter {
    private let maxBytes: Int
    private var pending: [UInt8] = []
    /// Inside the tail of a line already handed on cut.
    private var skipping = false

    init(maxBytes: Int) {
        self.maxBytes = max(1, maxBytes)
        pending.reserveCapacity(self.maxBytes)
    }

    mutating func append(_ bytes: some Collection<UInt8>, line: (String) -> Void) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !skipping { flush(line) }
                skipping = false
            } else if !skipping {
                pending.append(byte)
                if pending.count == maxBytes {
                    flush(line)
                    skipping = true
                }
            }
        }
    }

    /// The last line when the stream ended without its line break (a writer killed mid-line).
    mutating func finish(line: (String) -> Void) {
        if !skipping { flush(line) }
        skipping = false
    }

    private mutating func flush(_ line: (String) -> Void) {
        defer { pending.removeAll(keepingCapacity: true) }
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        guard !pending.isEmpty else { return }
        line(String(decoding: pending, as: UTF8.self))
    }
}
