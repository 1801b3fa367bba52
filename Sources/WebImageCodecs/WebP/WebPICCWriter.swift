import CWebP
import Foundation
import WebImageCore

/// Adds an ICC profile to encoded WebP bytes with libwebp's muxer, which writes the `ICCP` chunk and sets the
/// VP8X flag (turning a simple file into an extended one).
enum WebPICCWriter {
    static func attach(_ profile: Data, to webp: Data) throws -> Data {
        guard let mux = webp.withUnsafeBytes({ raw -> OpaquePointer? in
            var image = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            return WebPMuxCreateInternal(&image, 1, WEBP_MUX_ABI_VERSION)
        }) else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp's muxer could not read the encoded image")
        }
        defer { WebPMuxDelete(mux) }
        let status = profile.withUnsafeBytes { raw -> WebPMuxError in
            var chunk = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            return WebPMuxSetChunk(mux, "ICCP", &chunk, 1)
        }
        var assembled = WebPData()
        guard status == WEBP_MUX_OK, WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp's muxer could not add the ICC profile")
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: assembled.size)
    }
}
