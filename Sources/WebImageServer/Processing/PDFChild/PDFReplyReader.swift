import Spawning
import WebImage

/// The child's reply as it arrives (``PDFPageWire``): the status, then a failure's message or the pixels'
/// size, checked against the size asked for, and the pixels straight into the raster. Reads never take more
/// than the part being read, so a reply's bytes are never mixed up.
struct PDFReplyReader {
    private enum Stage {
        /// The status and the first UInt32 (the width, or the message length).
        case head
        /// A success's height.
        case height(width: Int)
        case pixels(done: Int)
        case message(length: Int)
        case complete
    }

    private let expected: PixelSize
    private var stage = Stage.head
    private var pending: [UInt8] = []
    /// A failure's message, once complete.
    private(set) var failure: String?
    /// What made the reply not one the service asked for.
    private(set) var protocolError: String?

    init(expected: PixelSize) {
        self.expected = expected
    }

    var isComplete: Bool {
        if case .complete = stage { return true }
        return false
    }

    /// Reads what is there; false when the child closed its output before the reply was complete, or the
    /// reply is not one (``protocolError``).
    mutating func read(from descriptor: Int32, into pixels: UnsafeMutableRawBufferPointer) -> Bool {
        switch stage {
        case .head, .height, .message:
            return readPending(from: descriptor)
        case .pixels(let done):
            switch FileDescriptorIO.readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: pixels[done...])) {
            case .moved(let count):
                stage = done + count == pixels.count ? .complete : .pixels(done: done + count)
                return true
            case .wouldBlock: return true
            case .closed, .failed: return false
            }
        case .complete:
            return true
        }
    }

    private var pendingWanted: Int {
        switch stage {
        case .head: 5
        case .height: 4
        case .message(let length): length
        case .pixels, .complete: 0
        }
    }

    private mutating func readPending(from descriptor: Int32) -> Bool {
        let wanted = pendingWanted
        var chunk = [UInt8](repeating: 0, count: wanted - pending.count)
        let result = chunk.withUnsafeMutableBytes { FileDescriptorIO.readSome(descriptor, into: $0) }
        switch result {
        case .moved(let count): pending += chunk.prefix(count)
        case .wouldBlock: return true
        case .closed, .failed: return false
        }
        guard pending.count == wanted else { return true }
        return advance()
    }

    /// Moves past a complete part.
    private mutating func advance() -> Bool {
        var reader = LittleEndianReader(pending[...])
        switch stage {
        case .head:
            let status = reader.uint8()
            let value = Int(reader.uint32())
            switch status {
            case 0: stage = .height(width: value)
            case 1 where value <= PDFPageWire.maxMessageBytes: stage = value == 0 ? finish(message: "") : .message(length: value)
            default:
                protocolError = "status \(status), value \(value)"
                return false
            }
        case .height(let width):
            let height = Int(reader.uint32())
            guard width == expected.width, height == expected.height else {
                protocolError = "a \(width)x\(height) page, not the \(expected.width)x\(expected.height) asked for"
                return false
            }
            stage = .pixels(done: 0)
        case .message:
            stage = finish(message: String(decoding: pending, as: UTF8.self))
        case .pixels, .complete:
            break
        }
        pending = []
        return true
    }

    private mutating func finish(message: String) -> Stage {
        failure = message.isEmpty ? "the PDF renderer gave no reason" : message
        return .complete
    }
}
