import CWebP
import Foundation
import WebImageCore

/// One `WebPIDecoder` run over a still WebP whose bytes arrive in pieces.
///
/// The decoder writes RGBA rows (scaled when the options ask for a smaller size) into one buffer of the
/// output size that this session owns; each call appends only the bytes not fed before. Rows libwebp has
/// not reached yet stay transparent black.
final class WebPIncrementalSession {
    let source: PixelSize
    let output: PixelSize
    let hasAlpha: Bool
    /// Rows decoded so far (libwebp's `last_y`).
    private(set) var decodedRows = 0
    /// Whether libwebp has decoded the whole image.
    private(set) var isComplete = false

    private var fed = 0
    private let buffer: UnsafeMutableRawBufferPointer
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private var decoder: OpaquePointer?

    init(features: WebPBitstreamFeatures, options: ImageDecodeOptions) throws {
        source = features.pixelSize
        try options.checkPixelCount(width: source.width, height: source.height)
        output = options.targetSize(forSource: source) ?? source
        hasAlpha = features.has_alpha != 0
        var settings = try WebPStillDecoder.makeConfig(source: source, target: output)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: output.pixelCount * 4, alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        WebPStillDecoder.attach(buffer, to: &settings.output, width: output.width)
        config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: settings)
        // With no bytes given, WebPIDecode only binds the configuration; it must outlive the decoder.
        decoder = WebPIDecode(nil, 0, config)
        guard decoder != nil else {
            config.deallocate()
            buffer.deallocate()
            throw WebImageError.badImageData(.corrupt("libwebp could not start an incremental decoder"))
        }
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
        config.deallocate()
        buffer.deallocate()
    }

    /// Feeds the bytes of `data` past those already fed; returns whether new rows were decoded.
    func append(_ data: Data) throws -> Bool {
        guard let decoder, !isComplete, data.count > fed else { return false }
        let status = data.withUnsafeBytes { raw in
            WebPIAppend(decoder, raw.bindMemory(to: UInt8.self).baseAddress.map { $0 + fed }, raw.count - fed)
        }
        fed = data.count
        guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else {
            throw WebPStatus.error(status, "WebP incremental decode")
        }
        var lastRow: Int32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        if WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride) == nil { lastRow = 0 }
        if status == VP8_STATUS_OK {
            isComplete = true
            lastRow = Int32(output.height)
            WebPIDelete(decoder)
            self.decoder = nil
        }
        guard Int(lastRow) > decodedRows else { return false }
        decodedRows = Int(lastRow)
        return true
    }

    /// A copy of the output buffer as it is now.
    func snapshot() -> PixelBuffer {
        PixelBuffer(width: output.width, height: output.height, format: .rgba8) { out in
            out.copyMemory(from: UnsafeRawBufferPointer(buffer))
        }
    }
}
