import CAVIF
import CHEIF
import CJXL
import Foundation
import WebImage

/// A raw C library decoding complete bytes to 8-bit RGBA in one reused buffer, as the plain C API does it.
protocol RawRGBADecoding: AnyObject {
    /// The RGBA bytes of the last decode.
    var rgba: [UInt8] { get }
    func decode() throws
}

/// libavif's plain path: a decoder per image reading straight from the caller's memory, then
/// `avifImageYUVToRGB` into the reused RGBA buffer. libavif's defaults, as AVIFCoder keeps them: one thread
/// (`maxThreads` 1). `avifDecoderReadMemory` would add a copy of the YUV planes into a caller's `avifImage`
/// on top of this parse + next-image pair, so this is the faster of libavif's two plain paths.
final class RawAVIFDecoder: RawRGBADecoding {
    private let data: Data
    private(set) var rgba: [UInt8]
    private let width: Int

    init(_ data: Data, size: PixelSize) {
        self.data = data
        width = size.width
        rgba = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    func decode() throws {
        guard let decoder = avifDecoderCreate() else { throw failure("avifDecoderCreate") }
        defer { avifDecoderDestroy(decoder) }
        let result = data.withUnsafeBytes { bytes in
            rgba.withUnsafeMutableBufferPointer { out in
                var result = avifDecoderSetIOMemory(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
                if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
                if result == AVIF_RESULT_OK { result = avifDecoderNextImage(decoder) }
                guard result == AVIF_RESULT_OK else { return result }
                var rgb = avifRGBImage()
                avifRGBImageSetDefaults(&rgb, decoder.pointee.image)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                rgb.pixels = out.baseAddress
                rgb.rowBytes = UInt32(width * 4)
                return avifImageYUVToRGB(decoder.pointee.image, &rgb)
            }
        }
        guard result == AVIF_RESULT_OK else { throw failure(String(cString: avifResultToString(result))) }
    }

    private func failure(_ reason: String) -> WebImageError {
        .badImageData(.corrupt("raw libavif: \(reason)"))
    }
}

/// libheif's plain path: a context reading the caller's memory without a copy, the primary image decoded to
/// interleaved RGBA (libheif allocates that image itself; 1.15 cannot decode into a caller's buffer), its rows
/// copied into the reused buffer. libheif's default threads, as HEIFCoder keeps them.
final class RawHEIFDecoder: RawRGBADecoding {
    private let data: Data
    private(set) var rgba: [UInt8]
    private let width: Int, height: Int

    init(_ data: Data, size: PixelSize) {
        self.data = data
        (width, height) = (size.width, size.height)
        rgba = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    func decode() throws {
        guard let context = heif_context_alloc() else { throw failure("heif_context_alloc") }
        defer { heif_context_free(context) }
        try data.withUnsafeBytes { bytes in
            try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            defer { heif_image_handle_release(handle) }
            var image: OpaquePointer?
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil))
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                throw failure("no interleaved plane")
            }
            let rowBytes = width * 4
            rgba.withUnsafeMutableBytes { out in
                for row in 0..<height {
                    out.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: plane.advanced(by: row * Int(stride)), byteCount: rowBytes)
                }
            }
        }
    }

    private func check(_ error: heif_error) throws {
        guard error.code == heif_error_Ok else { throw failure(error.message.map { String(cString: $0) } ?? "error") }
    }

    private func failure(_ reason: String) -> WebImageError {
        .badImageData(.corrupt("raw libheif: \(reason)"))
    }
}

/// libjxl's plain path: a decoder per image over the caller's memory, the basic-info and full-image events,
/// and `JxlDecoderSetImageOutBuffer` pointing at the reused RGBA buffer. Threads as JXLCoder's: libjxl's
/// thread-pool runner with `JxlThreadParallelRunnerDefaultNumWorkerThreads()` workers (one per core); this
/// side keeps one runner for every decode where JXLCoder starts one per decode.
final class RawJXLDecoder: RawRGBADecoding {
    private let data: Data
    private(set) var rgba: [UInt8]
    private let runner: UnsafeMutableRawPointer?

    init(_ data: Data, size: PixelSize) {
        self.data = data
        rgba = [UInt8](repeating: 0, count: size.pixelCount * 4)
        runner = JxlThreadParallelRunnerCreate(nil, JxlThreadParallelRunnerDefaultNumWorkerThreads())
    }

    deinit {
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
    }

    func decode() throws {
        guard let decoder = JxlDecoderCreate(nil) else { throw failure("JxlDecoderCreate") }
        defer { JxlDecoderDestroy(decoder) }
        guard JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner) == JXL_DEC_SUCCESS,
              JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FULL_IMAGE.rawValue))
                == JXL_DEC_SUCCESS else { throw failure("decoder settings") }
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        try data.withUnsafeBytes { bytes in
            try rgba.withUnsafeMutableBytes { out in
                JxlDecoderSetInput(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
                while true {
                    switch JxlDecoderProcessInput(decoder) {
                    case JXL_DEC_BASIC_INFO, JXL_DEC_FULL_IMAGE: continue
                    case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                        guard JxlDecoderSetImageOutBuffer(decoder, &format, out.baseAddress, out.count)
                                == JXL_DEC_SUCCESS else { throw failure("output buffer") }
                    case JXL_DEC_SUCCESS: return
                    case let status: throw failure("status \(status.rawValue)")
                    }
                }
            }
        }
    }

    private func failure(_ reason: String) -> WebImageError {
        .badImageData(.corrupt("raw libjxl: \(reason)"))
    }
}
