import Foundation
import WebImage

/// One value of the shared tier: encoded image bytes with the format and ETag a server needs, framed so a
/// reader can tell a whole, well-formed value from a torn or foreign one.
///
/// Layout: `SWIC`, version 1, format (one byte), ETag length (2 bytes) and ETag, payload length (4 bytes),
/// payload; big-endian lengths. Values are written whole by one `SET`; ``init(decoding:)`` checks every
/// length and that the payload sniffs as the stated format.
public struct SharedCacheEntry: Sendable, Hashable {
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var etag: String?

    public init(bytes: [UInt8], format: ImageFormat, etag: String? = nil) {
        self.bytes = bytes
        self.format = format
        self.etag = etag
    }

    static let magic = Array("SWIC".utf8), version: UInt8 = 1

    /// The framed value.
    public var encoded: [UInt8] {
        let tag = Array((etag ?? "").utf8.prefix(Int(UInt16.max)))
        var out = Self.magic + [Self.version, UInt8(ImageFormat.allCases.firstIndex(of: format) ?? 0)]
        out += [UInt8(tag.count >> 8), UInt8(tag.count & 0xFF)] + tag
        out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: bytes.count >> $0) } + bytes
        return out
    }

    /// Reads a framed value; nil for anything torn, foreign or whose payload is not the stated format.
    public init?(decoding value: [UInt8]) {
        guard value.count >= 12, Array(value[0..<4]) == Self.magic, value[4] == Self.version,
              Int(value[5]) < ImageFormat.allCases.count else { return nil }
        let format = ImageFormat.allCases[Int(value[5])]
        let tagLength = Int(value[6]) << 8 | Int(value[7])
        let payloadStart = 8 + tagLength + 4
        guard value.count >= payloadStart else { return nil }
        let length = value[(8 + tagLength)..<payloadStart].reduce(0) { $0 << 8 | Int($1) }
        guard value.count == payloadStart + length, length > 0 else { return nil }
        let payload = Array(value[payloadStart...])
        guard ImageFormat(sniffing: Data(payload)) == format else { return nil }
        let tag = String(decoding: value[8..<(8 + tagLength)], as: UTF8.self)
        self.init(bytes: payload, format: format, etag: tag.isEmpty ? nil : tag)
    }
}
