/// How much of the C libraries' output reaches the log: a client that sends corrupt files must not be able to
/// flood it, nor one long line fill it.
public struct LibraryLogLimits: Sendable, Hashable {
    /// Lines logged per second over time, all libraries together. Default 5.
    public var linesPerSecond: Double
    /// Lines logged at once after a quiet spell (the bucket's size). Default 10.
    public var burst: Int
    /// Bytes of a line kept; a longer line is cut there and ends with `…`. Default 1,024.
    public var maxLineBytes: Int

    public init(linesPerSecond: Double = 5, burst: Int = 10, maxLineBytes: Int = 1024) {
        self.linesPerSecond = linesPerSecond
        self.burst = burst
        self.maxLineBytes = maxLineBytes
    }
}
