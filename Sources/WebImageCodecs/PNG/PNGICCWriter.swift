import CDeflate
import WebImageCore

/// Builds the `iCCP` chunk carrying an ICC profile: a name, NUL, compression method 0, the zlib-compressed
/// profile.
enum PNGICCWriter {
    static func chunk(for profile: [UInt8]) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(9) else {
            throw WebImageError.encodingFailed(format: .png, reason: "libdeflate could not start")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, profile.count)
        var compressed = [UInt8](repeating: 0, count: bound)
        let size = profile.withUnsafeBytes { source in
            compressed.withUnsafeMutableBytes {
                libdeflate_zlib_compress(compressor, source.baseAddress, source.count, $0.baseAddress, bound)
            }
        }
        guard size > 0 else { throw WebImageError.encodingFailed(format: .png, reason: "the ICC profile did not compress") }
        var writer = PNGChunkWriter()
        writer.append(PNGColorReader.iCCP, Array("ICC Profile".utf8) + [0, 0] + compressed.prefix(size))
        return Array(writer.bytes.dropFirst(PNGSignature.bytes.count))
    }
}
