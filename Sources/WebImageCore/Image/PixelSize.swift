/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width × height (zero for a degenerate size).
    public var pixelCount: Int { max(0, width) * max(0, height) }

    /// `WxH`, the form the command line reads.
    public var description: String { "\(width)x\(height)" }

    /// Parses `WxH` (`400x300`); nil unless both are positive integers.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }
}
