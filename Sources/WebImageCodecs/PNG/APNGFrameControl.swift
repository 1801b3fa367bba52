import WebImageCore

/// One APNG fcTL chunk: where a frame goes on the canvas, how long it shows and how it is combined.
struct APNGFrameControl: Equatable, Sendable {
    /// What happens to the frame's region once it has been shown.
    enum Dispose: UInt8, Sendable {
        /// Left as it is.
        case none = 0
        /// Cleared to transparent black.
        case background = 1
        /// Restored to what it was before the frame was drawn.
        case previous = 2
    }

    /// How the frame's pixels combine with the canvas.
    enum Blend: UInt8, Sendable {
        /// Replace the region, alpha included.
        case source = 0
        /// Alpha-composite over the region.
        case over = 1
    }

    var width: Int
    var height: Int
    var x: Int
    var y: Int
    var delayNumerator: UInt16
    var delayDenominator: UInt16
    var dispose: Dispose
    var blend: Blend

    /// The size of the fcTL payload, sequence number included.
    static let payloadLength = 26

    /// Seconds the frame is shown: numerator ÷ denominator, a denominator of 0 meaning 100. Like SDWebImage
    /// (and Firefox), delays of 10 ms or less become 100 ms, since such files mean "as fast as possible".
    var duration: Double {
        let seconds = Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator)
        return seconds < 0.011 ? 0.1 : seconds
    }

    /// Reads the payload after its sequence number, checking it fits on a `canvas`-sized image.
    init(payload bytes: UnsafeRawBufferPointer, canvas: PixelSize) throws {
        width = Int(bytes.bigEndianUInt32(at: 4))
        height = Int(bytes.bigEndianUInt32(at: 8))
        x = Int(bytes.bigEndianUInt32(at: 12))
        y = Int(bytes.bigEndianUInt32(at: 16))
        delayNumerator = bytes.bigEndianUInt16(at: 20)
        delayDenominator = bytes.bigEndianUInt16(at: 22)
        guard let dispose = Dispose(rawValue: bytes[24]), let blend = Blend(rawValue: bytes[25]) else {
            throw WebImageError.badImageData(.corrupt("APNG frame has an unknown dispose or blend operation"))
        }
        self.dispose = dispose
        self.blend = blend
        guard width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height else {
            throw WebImageError.badImageData(.corrupt("APNG frame \(width)x\(height) at (\(x), \(y)) lies outside the \(canvas) canvas"))
        }
    }

    init(width: Int, height: Int, x: Int = 0, y: Int = 0, delayNumerator: UInt16, delayDenominator: UInt16,
         dispose: Dispose = .none, blend: Blend = .source) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.delayNumerator = delayNumerator
        self.delayDenominator = delayDenominator
        self.dispose = dispose
        self.blend = blend
    }

    /// Whether the frame covers the whole `canvas`.
    func covers(_ canvas: PixelSize) -> Bool {
        x == 0 && y == 0 && width == canvas.width && height == canvas.height
    }
}
