import Foundation
import Spawning
import WebImage

/// What the service and its PDF child say to each other: one request on the child's standard input, one reply
/// on its standard output, little-endian fixed-size fields.
///
/// Request: the magic, then page, width, height (UInt32), memory limit (UInt64), CPU seconds (UInt32), document
/// length (UInt64), then the document. Reply: 0, width, height (UInt32), then width × height straight RGBA8
/// pixels; or 1, a message length (UInt32) and the message in UTF-8.
enum PDFPageWire {
    static let magic = Array("webimage-pdf-page-1\n".utf8)
    static let requestHeaderSize = magic.count + 4 * 3 + 8 + 4 + 8
    /// A failure's message is cut to this many bytes.
    static let maxMessageBytes = 1024

    /// A page to draw: which one, at exactly which raster size, within which limits.
    struct Request: Equatable {
        var page: Int
        var size: PixelSize
        var memoryLimit: Int
        var cpuSeconds: Int
        var documentLength: Int

        var header: [UInt8] {
            var bytes = magic
            for value in [page, size.width, size.height] { bytes.append(le: UInt32(clamping: value)) }
            bytes.append(le: UInt64(clamping: memoryLimit))
            bytes.append(le: UInt32(clamping: cpuSeconds))
            bytes.append(le: UInt64(clamping: documentLength))
            return bytes
        }

        /// The request `header` carries; nil when it is not one.
        init?(header: [UInt8]) {
            guard header.count == PDFPageWire.requestHeaderSize, header.starts(with: magic) else { return nil }
            var reader = LittleEndianReader(header[magic.count...])
            page = Int(reader.uint32())
            size = PixelSize(width: Int(reader.uint32()), height: Int(reader.uint32()))
            memoryLimit = Int(clamping: reader.uint64())
            cpuSeconds = Int(reader.uint32())
            documentLength = Int(clamping: reader.uint64())
        }

        init(page: Int, size: PixelSize, memoryLimit: Int, cpuSeconds: Int, documentLength: Int) {
            self.page = page
            self.size = size
            self.memoryLimit = memoryLimit
            self.cpuSeconds = cpuSeconds
            self.documentLength = documentLength
        }
    }

    /// The header of a reply carrying `size`'s pixels (the pixels follow).
    static func pixelsHeader(_ size: PixelSize) -> [UInt8] {
        var bytes: [UInt8] = [0]
        bytes.append(le: UInt32(clamping: size.width))
        bytes.append(le: UInt32(clamping: size.height))
        return bytes
    }

    /// A whole failure reply.
    static func failure(_ message: String) -> [UInt8] {
        let text = Array(message.utf8.prefix(maxMessageBytes))
        var bytes: [UInt8] = [1]
        bytes.append(le: UInt32(text.count))
        return bytes + text
    }
}

/// Reads little-endian integers off a byte slice the caller has checked is long enough.
struct LittleEndianReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    mutating func uint8() -> UInt8 {
        UInt8(truncatingIfNeeded: read(1))
    }

    mutating func uint32() -> UInt32 {
        UInt32(truncatingIfNeeded: read(4))
    }

    mutating func uint64() -> UInt64 {
        read(8)
    }

    private mutating func read(_ count: Int) -> UInt64 {
        let value = bytes.prefix(count).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        bytes = bytes.dropFirst(count)
        return value
    }
}
