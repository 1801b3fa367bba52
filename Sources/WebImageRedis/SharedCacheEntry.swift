import Foundation
import WebImage

/// One value of the shared tier: encoded image bytes with the format, ETag and Last-Modified a server needs,
/// framed so a reader can tell a whole, well-formed value from a torn or foreign one.
///
/// Layout: `SWIC`, version 3, format (one byte: `ImageFormat.sharedCacheCode`, a fixed table), ETag length
/// (2 bytes) and ETag, Last-Modified (8 bytes, whole seconds since 1970, 0 for none), payload length (4 bytes),
/// payload, checksum (the first 16 bytes of the SHA-256 of everything before it); big-endian numbers. Values are
/// written whole by one `SET`; ``init(decoding:)`` checks the checksum, every length and that the payload sniffs
/// as the stated format (an SVGZ as SVG), so a value whose bytes changed after it was written is refused like a
/// torn one. Values of earlier versions (no checksum), and values whose format code no format has, are refused
/// too, so they are made again and overwritten.
public struct SharedCacheEntry: Sendable, Hashable {
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var etag: String?
    /// Kept to the whole second (what HTTP dates carry).
    public var lastModified: Date?

    public init(bytes: [UInt8], format: ImageFormat, etag: String? = nil, lastModified: Date? = nil) {
        self.bytes = bytes
        self.format = format
        self.etag = etag
        self.lastModified = lastModified.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    }

    static let magic = Array("SWIC".utf8), version: UInt8 = 3
    /// 9999-12-31T23:59:59Z, the last date HTTP can spell: later dates are written as it, and a value carrying one
    /// is foreign (decoding one near 2^64 s made ``encoded`` trap converting it back).
    static let latestSecond: UInt64 = 253_402_300_799

    /// The framed value.
    public var encoded: [UInt8] {
        let tag = Array((etag ?? "").utf8.prefix(Int(UInt16.max)))
        let seconds = UInt64(min(max(0, lastModified?.timeIntervalSince1970 ?? 0), Double(Self.latestSecond)))
        var out = Self.magic + [Self.version, format.sharedCacheCode]
        out += [UInt8(tag.count >> 8), UInt8(tag.count & 0xFF)] + tag
        out += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: seconds >> UInt64($0)) }
        out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: bytes.count >> $0) } + bytes
        return out + ValueChecksum.of(out)
    }

    /// Reads a framed value; nil for anything torn, foreign, changed since it was written, of another
    /// version, of a format code no format has, or whose payload is not the stated format.
    public init?(decoding stored: [UInt8]) {
        guard stored.count >= 20 + ValueChecksum.size else { return nil }
        let value = stored[..<(stored.count - ValueChecksum.size)]
        guard ValueChecksum.of(value).elementsEqual(stored[value.endIndex...]), Array(value[0..<4]) == Self.magic,
              value[4] == Self.version, let format = ImageFormat(sharedCacheCode: value[5]) else { return nil }
        let tagLength = Int(value[6]) << 8 | Int(value[7])
        let dateStart = 8 + tagLength, lengthStart = dateStart + 8, payloadStart = lengthStart + 4
        guard value.count >= payloadStart else { return nil }
        let seconds = value[dateStart..<lengthStart].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let length = value[lengthStart..<payloadStart].reduce(0) { $0 << 8 | Int($1) }
        guard value.count == payloadStart + length, length > 0, seconds <= Self.latestSecond else { return nil }
        let payload = Array(value[payloadStart...])
        guard Self.payload(Data(payload), is: format) else { return nil }
        let tag = String(decoding: value[8..<dateStart], as: UTF8.self)
        self.init(bytes: payload, format: format, etag: tag.isEmpty ? nil : tag,
                  lastModified: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Whether `payload` sniffs as `format`, an SVGZ (which sniffing leaves undefined) counting as SVG, the format
    /// the SVG coder reads it as.
    private static func payload(_ payload: Data, is format: ImageFormat) -> Bool {
        ImageFormat(sniffing: payload) == format || (format == .svg && SVGZ.isSVGZ(payload))
    }
}
