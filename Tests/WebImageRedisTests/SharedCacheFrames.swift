import WebImage
@testable import WebImageRedis

/// Frames built byte by byte, as a writer of another version or a foreign one could store them.
enum SharedCacheFrames {
    /// A frame of `GIF89a` (which sniffs as GIF) stored under format `code`, with `seconds` as its
    /// Last-Modified and no ETag, its checksum appended.
    static func gif(code: UInt8 = ImageFormat.gif.sharedCacheCode, seconds: UInt64 = 0) -> [UInt8] {
        let payload = Array("GIF89a".utf8)
        var value = SharedCacheEntry.magic + [SharedCacheEntry.version, code, 0, 0]
        value += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: seconds >> UInt64($0)) }
        value += [0, 0, 0, UInt8(payload.count)] + payload
        return value + ValueChecksum.of(value)
    }
}
