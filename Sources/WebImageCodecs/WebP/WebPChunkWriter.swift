import CWebP
import Foundation
import WebImageCore

/// Adds chunks (`ICCP`, `EXIF`, `XMP `) to encoded WebP bytes with libwebp's muxer, which also sets the VP8X
/// flags (turning a simple file into an extended one).
enum WebPChunkWriter {
    static func attach(_ chunks: [(name: String, data: Data)], to webp: Data) throws -> Data {
        guard !chunks.isEmpty else { return webp }
        guard let mux = webp.withUnsafeBytes({ raw -> OpaquePointer? in
            var image = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            return WebPMuxCreateInternal(&image, 1, WEBP_MUX_ABI_VERSION)
        }) else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp's muxer could not read the encoded image")
        }
        defer { WebPMuxDelete(mux) }
        for (name, data) in chunks {
            let status = data.withUnsafeBytes { raw -> WebPMuxError in
                var chunk = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
                return WebPMuxSetChunk(mux, name, &chunk, 1)
            }
            guard status == WEBP_MUX_OK else {
                throw WebImageError.encodingFailed(format: .webp, reason: "libwebp's muxer could not add the \(name) chunk")
            }
        }
        var assembled = WebPData()
        guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw WebImageError.encodingFailed(format: .webp, reason: "libwebp's muxer could not assemble the file")
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: assembled.size)
    }
}
