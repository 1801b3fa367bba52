import Spawning

/// What a video child answered (``VideoChildWire``): the JSON, and a frame's pixels.
struct VideoChildReply {
    var json: [UInt8] = []
    var pixels: [UInt8] = []
}

/// The child's reply as it arrives: the status and length, the JSON or the failure's message, then for a frame
/// the pixels' length (checked against the most the request allows) and the pixels.
struct VideoChildReplyReader {
    private enum Stage {
        case head, json(length: Int), message(length: Int), pixelLength, pixels(count: Int), complete
    }

    private let kind: VideoChildWire.Request.Kind
    private let maxPixelBytes: Int
    private var stage = Stage.head
    private var pending: [UInt8] = []
    private(set) var result = VideoChildReply()
    private(set) var failure: String?
    private(set) var protocolError: String?

    init(kind: VideoChildWire.Request.Kind, maxPixelBytes: Int) {
        self.kind = kind
        self.maxPixelBytes = maxPixelBytes
    }

    var isComplete: Bool {
        if case .complete = stage { return true }
        return false
    }

    private var wanted: Int {
        switch stage {
        case .head: 5
        case .json(let length), .message(let length): length
        case .pixelLength: 8
        case .pixels(let count): count
        case .complete: 0
        }
    }

    /// Reads what is there; false when the child closed its output first or the reply is not one.
    mutating func read(from descriptor: Int32) -> Bool {
        let missing = wanted - pending.count
        if missing > 0 {
            var chunk = [UInt8](repeating: 0, count: min(missing, 1 << 20))
            switch chunk.withUnsafeMutableBytes({ FileDescriptorIO.readSome(descriptor, into: $0) }) {
            case .moved(let count): pending += chunk.prefix(count)
            case .wouldBlock: return true
            case .closed, .failed: return false
            }
        }
        while !isComplete, pending.count == wanted {
            guard advance() else { return false }
        }
        return true
    }

    private mutating func advance() -> Bool {
        let part = pending
        pending = []
        switch stage {
        case .head:
            let length = Int(UInt32(littleEndianBytes: part[1...]))
            switch part[0] {
            case 0 where length <= VideoChildWire.maxJSONBytes: stage = .json(length: length)
            case 1 where length <= VideoChildWire.maxMessageBytes:
                stage = .message(length: length)
                if length == 0 { finish(message: "") }
            default:
                protocolError = "status \(part[0]), length \(length)"
                return false
            }
        case .json:
            result.json = part
            stage = kind == .probe ? .complete : .pixelLength
        case .message:
            finish(message: String(decoding: part, as: UTF8.self))
        case .pixelLength:
            let count = UInt64(littleEndianBytes: part)
            guard count <= UInt64(maxPixelBytes) else {
                protocolError = "\(count) bytes of pixels, over the \(maxPixelBytes) allowed"
                return false
            }
            stage = count == 0 ? .complete : .pixels(count: Int(count))
        case .pixels:
            result.pixels = part
            stage = .complete
        case .complete:
            break
        }
        return true
    }

    private mutating func finish(message: String) {
        failure = message.isEmpty ? "the video child gave no reason" : message
        stage = .complete
    }
}
