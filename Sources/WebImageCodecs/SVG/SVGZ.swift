import CZlib
import Foundation
import WebImageCore

/// Gzip-compressed SVG (`.svgz`, sent without `Content-Encoding`), which librsvg and libvips read: gzip whose
/// inflated start is an SVG root by ``ImageFormat/init(sniffing:)``'s rule. WebImageCore sniffs no compression
/// (it has no C imports), so sniffing says ``ImageFormat/undefined`` for these bytes; ``SVGCoder`` claims them
/// through ``isSVGZ(_:)`` and draws the document ``inflate(_:maxBytes:)`` gives it.
///
/// Inflating is bounded: never past the byte limit nor ``maxRatio`` times the compressed size, streamed through
/// zlib so a gzip bomb costs at most that limit in memory and ends in
/// ``BadImageDataReason/inflatesTooLarge(limit:)``. Sniffing inflates at most
/// ``ImageFormat/svgSniffingLength`` bytes.
///
/// ```swift
/// if SVGZ.isSVGZ(data) { let svg = try SVGZ.inflate(data, maxBytes: 10_000_000) }
/// ```
public enum SVGZ {
    /// The most an SVGZ may inflate, as a multiple of its compressed size: drawings compress 3–10×, very
    /// repetitive ones some tens of times; a gzip bomb reaches about 1,000×. 100.
    public static let maxRatio = 100
    /// The byte limit ``SVGCoder`` inflates to: 50,000,000, `webimage serve`'s default source limit.
    public static let defaultMaxBytes = 50_000_000

    /// Whether `data` is gzip whose inflated start sniffs as SVG; a truncated stream is judged on what it holds.
    public static func isSVGZ(_ data: Data) -> Bool {
        guard isGzip(data) else { return false }
        var prefix = Data()
        let wanted = ImageFormat.svgSniffingLength
        _ = try? stream(data, chunk: wanted) { bytes in
            prefix.append(contentsOf: bytes.prefix(wanted - prefix.count))
            return prefix.count < wanted
        }
        return ImageFormat(sniffing: prefix) == .svg
    }

    /// The document an SVGZ holds, at most `maxBytes` and ``maxRatio`` times the compressed size; throws
    /// ``BadImageDataReason/inflatesTooLarge(limit:)`` past that, ``BadImageDataReason/truncated`` for a stream
    /// that ends early, ``BadImageDataReason/corrupt(_:)`` for one zlib cannot read.
    public static func inflate(_ data: Data, maxBytes: Int = defaultMaxBytes) throws -> Data {
        let (ratioLimit, overflow) = data.count.multipliedReportingOverflow(by: maxRatio)
        let limit = max(0, min(maxBytes, overflow ? .max : ratioLimit))
        var document = Data()
        let ended = try stream(data, chunk: 64 << 10) { bytes in
            guard document.count + bytes.count <= limit else {
                throw WebImageError.badImageData(.inflatesTooLarge(limit: limit))
            }
            try WorkCancellation.checkCurrent()
            document.append(contentsOf: bytes)
            return true
        }
        guard ended else { throw WebImageError.badImageData(.truncated) }
        return document
    }

    /// The gzip signature: `1F 8B`, then method 8 (deflate).
    static func isGzip(_ data: Data) -> Bool {
        data.starts(with: [0x1F, 0x8B, 0x08])
    }

    /// Inflates the gzip stream of `data` `chunk` bytes of output at a time, handing each to `consume`, which
    /// returns false to stop. True when the stream ended; false when the input ran out first or `consume` stopped.
    private static func stream(_ data: Data, chunk: Int,
                               _ consume: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        try data.withUnsafeBytes { input in
            var zstream = z_stream()
            // 15 + 16: the largest window, gzip's header and trailer (zlib's `inflateInit2` is a macro).
            guard inflateInit2_(&zstream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw WebImageError.badImageData(.corrupt("zlib: cannot start inflating"))
            }
            defer { inflateEnd(&zstream) }
            let start = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            var fed = 0
            var output = [UInt8](repeating: 0, count: chunk)
            while true {
                // zlib counts input in 32 bits: more than 4 GB is fed in pieces.
                if zstream.avail_in == 0, fed < input.count, let start {
                    let piece = min(input.count - fed, Int(UInt32.max))
                    zstream.next_in = start + fed
                    zstream.avail_in = uInt(piece)
                    fed += piece
                }
                let status = output.withUnsafeMutableBytes { buffer in
                    zstream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
                    zstream.avail_out = uInt(chunk)
                    return CZlib.inflate(&zstream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(zstream.avail_out)
                if produced > 0 {
                    let more = try output.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) }
                    if !more { return false }
                }
                switch status {
                case Z_STREAM_END: return true
                case Z_OK: continue
                // No progress possible: the input ran out before the stream's end.
                case Z_BUF_ERROR: return false
                default:
                    let message = zstream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw WebImageError.badImageData(.corrupt("zlib: \(message)"))
                }
            }
        }
    }
}
