import CZlib
import Foundation

/// Compressed bodies for responses sent with `Content-Encoding: gzip` or `deflate` (made with zlib).
///
/// ```swift
/// server.route("/a.png", TestResponse(headers: [("Content-Encoding", "gzip")], body: ContentEncoding.gzip(png)))
/// ```
public enum ContentEncoding {
    /// `data` in the zlib format (RFC 1950), which HTTP calls `deflate`.
    public static func deflate(_ data: Data) -> Data {
        var bound = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(bound))
        let status = data.withUnsafeBytes { input in
            compress2(&output, &bound, input.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), Z_BEST_COMPRESSION)
        }
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")
        return Data(output[0..<Int(bound)])
    }

    /// `data` in the gzip format (RFC 1952): the raw deflate stream of ``deflate(_:)`` (without the zlib
    /// header and checksum) between a gzip header and the CRC-32 and length trailer.
    public static func gzip(_ data: Data) -> Data {
        let zlib = deflate(data)
        var gzip = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 0xFF])
        gzip.append(zlib.dropFirst(2).dropLast(4))
        let crc = data.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt(data.count))) }
        for value in [crc, UInt32(truncatingIfNeeded: data.count)] {
            gzip.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return gzip
    }
}
