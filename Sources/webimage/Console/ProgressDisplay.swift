import Foundation
import Synchronization
import WebImage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress bars on stderr for a terminal: one per active download (bytes, rate) and an overall bar.
///
/// Disabled (every call a no-op) when stderr is not a terminal or output is JSON, so scripts and logs see
/// none of it. Redraws at most every 100 ms, in place, and erases itself when the batch is over.
final class ProgressDisplay: Sendable {
    private struct Transfer {
        var label: String
        var received = 0
        var expected = -1
        let started = Date()
    }

    private struct State {
        var active: [Int: Transfer] = [:]
        var finished = 0
        var skipped = 0
        var drawnLines = 0
        var lastDraw = Date.distantPast
    }

    private let enabled: Bool
    private let total: Int
    private let overallLabel: String
    private let state = Mutex(State())

    /// A display for `total` items; `enabled` only when asked and stderr is a terminal.
    init(total: Int, overallLabel: String, enabled: Bool) {
        self.total = total
        self.overallLabel = overallLabel
        self.enabled = enabled && StandardErrorOutput.isTerminal
    }

    /// Bytes arrived for item `index`.
    func update(_ index: Int, label: String, received: Int, expected: Int) {
        guard enabled else { return }
        redraw { state in
            var transfer = state.active[index] ?? Transfer(label: label)
            transfer.received = received
            transfer.expected = expected
            state.active[index] = transfer
        }
    }

    /// Item `index` is done (`skipped` when it gave no image).
    func finish(_ index: Int, skipped: Bool = false) {
        guard enabled else { return }
        redraw(force: true) { state in
            state.active[index] = nil
            state.finished += 1
            if skipped { state.skipped += 1 }
        }
    }

    /// Erases the bars, leaving the terminal as it was.
    func clear() {
        guard enabled else { return }
        let text = state.withLock { state -> String in
            defer { state.drawnLines = 0 }
            return Self.erase(state.drawnLines)
        }
        StandardErrorOutput.write(text)
    }

    private func redraw(force: Bool = false, _ change: (inout State) -> Void) {
        let text = state.withLock { state -> String? in
            change(&state)
            guard force || Date().timeIntervalSince(state.lastDraw) >= 0.1 else { return nil }
            state.lastDraw = Date()
            var lines = state.active.sorted { $0.key < $1.key }.prefix(8).map { Self.line(for: $0.value) }
            let skipped = state.skipped > 0 ? ", \(state.skipped) skipped" : ""
            lines.append(Self.bar(fraction: total == 0 ? 1 : Double(state.finished) / Double(total))
                         + " \(state.finished)/\(total) \(overallLabel)\(skipped)")
            let text = Self.erase(state.drawnLines) + lines.joined(separator: "\n") + "\n"
            state.drawnLines = lines.count
            return text
        }
        if let text { StandardErrorOutput.write(text) }
    }

    /// One download: bar (when the size is known), bytes, rate and a shortened label.
    private static func line(for transfer: Transfer) -> String {
        let seconds = max(Date().timeIntervalSince(transfer.started), 0.001)
        let rate = byteText(Int(Double(transfer.received) / seconds)) + "/s"
        let size = transfer.expected > 0
            ? bar(fraction: Double(transfer.received) / Double(transfer.expected))
                + " \(byteText(transfer.received))/\(byteText(transfer.expected))"
            : "\(byteText(transfer.received))"
        let label = transfer.label.count > 40 ? "…" + transfer.label.suffix(39) : transfer.label
        return "\(size) \(rate) \(label)"
    }

    /// `[#####-----]`, 20 cells.
    static func bar(fraction: Double) -> String {
        let filled = Int((min(max(fraction, 0), 1) * 20).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "]"
    }

    /// `812 B`, `3.4 KB`, `1.2 MB`.
    static func byteText(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    /// Moves the cursor up over `lines` drawn lines, erasing them.
    private static func erase(_ lines: Int) -> String {
        String(repeating: "\u{1B}[1A\u{1B}[2K", count: lines) + (lines > 0 ? "\r" : "")
    }
}
