import CWebP
import Foundation
import WebImageCore

/// Helpers turning libwebp's results into our types.
enum WebPStatus {
    /// The typed error for a failed libwebp decode status.
    static func error(_ status: VP8StatusCode, _ context: String) -> WebImageError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .badImageData(.truncated)
        case VP8_STATUS_OUT_OF_MEMORY: .badImageData(.corrupt("\(context): out of memory"))
        case VP8_STATUS_INVALID_PARAM: .badImageData(.corrupt("\(context): invalid parameter"))
        case VP8_STATUS_UNSUPPORTED_FEATURE: .badImageData(.corrupt("\(context): unsupported feature"))
        default: .badImageData(.corrupt("\(context): bitstream error (status \(status.rawValue))"))
        }
    }

    /// The bitstream features (size, alpha, animation) from the first bytes of a WebP file.
    ///
    /// Returns nil when more bytes are needed to tell; throws when the header is not valid WebP.
    static func features(_ data: Data) throws -> WebPBitstreamFeatures? {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { raw in
            WebPGetFeaturesInternal(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features,
                                    WEBP_DECODER_ABI_VERSION)
        }
        if status == VP8_STATUS_OK { return features }
        if status == VP8_STATUS_NOT_ENOUGH_DATA { return nil }
        throw error(status, "WebP header")
    }

    /// The bitstream features of complete bytes: a truncated header is an error here.
    static func requiredFeatures(_ data: Data) throws -> WebPBitstreamFeatures {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let features = try features(data) else { throw WebImageError.badImageData(.truncated) }
        return features
    }

    /// Frame durations below 11 ms become 100 ms, as browsers and SDWebImage show them.
    static func frameDuration(milliseconds: Int32) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }
}

extension WebPBitstreamFeatures {
    /// The canvas size the header announces.
    var pixelSize: PixelSize { PixelSize(width: Int(width), height: Int(height)) }
}
