import Foundation

/// Every failure the pipeline reports, carrying SDWebImage's error codes (``code``).
///
/// Codes: 1000 invalidURL, 1001 badImageData, 1002 cacheNotModified, 1003 blackListed,
/// 2000 invalidDownloadOperation, 2001 invalidDownloadStatusCode, 2002 cancelled,
/// 2003 invalidDownloadResponse, 2004 invalidDownloadContentType. Failures SDWebImage has no code for get
/// codes beside them (1100… for encoding and caching, 2100… for the transport), documented on each case.
public enum WebImageError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// 1000: the URL is missing, empty or cannot be parsed.
    case invalidURL(String?)
    /// 1001: the bytes are not a decodable image; the reason says why.
    case badImageData(BadImageDataReason)
    /// 1002: the server answered 304 Not Modified; the cached image stays valid.
    case cacheNotModified
    /// 1003: the URL failed permanently before and is on the failed-URL list (use `retryFailed`).
    case blackListed(URL)
    /// 2000: the download could not be started (for example a request modifier returned nil).
    case invalidDownloadOperation(String)
    /// 2001: the HTTP status is not acceptable; carries the status and the response headers.
    case invalidDownloadStatusCode(Int, headers: [(name: String, value: String)])
    /// 2002: the caller cancelled.
    case cancelled
    /// 2003: the response is not usable: a response modifier returned nil, a `file://` file cannot be read, a
    /// gzip/deflate body cannot be decoded or inflates past the decompression ratio limit.
    case invalidDownloadResponse(String)
    /// 2004: the response's content type is not one of the acceptable ones.
    case invalidDownloadContentType(String?)
    /// 1100: the image could not be encoded in the requested format.
    case encodingFailed(format: ImageFormat, reason: String)
    /// 1101: the cache could not store or read an entry (directory missing, unwritable, full).
    case cacheFailure(path: String, reason: String)
    /// 1102: an option or parameter has a value that cannot work (an unknown option name, a negative size…).
    case invalidOption(String)
    /// 2100: the transport failed (timeout, refused or reset connection, TLS…); ``TransportFailure`` says which.
    case transport(TransportFailure)
    /// 2101: the response body (decoded bytes; a `file://` file or device too) grew past the configured limit;
    /// reading was stopped.
    case responseTooLarge(limit: Int)

    /// SDWebImage's numeric code for this error.
    public var code: Int {
        switch self {
        case .invalidURL: 1000
        case .badImageData: 1001
        case .cacheNotModified: 1002
        case .blackListed: 1003
        case .invalidDownloadOperation: 2000
        case .invalidDownloadStatusCode: 2001
        case .cancelled: 2002
        case .invalidDownloadResponse: 2003
        case .invalidDownloadContentType: 2004
        case .encodingFailed: 1100
        case .cacheFailure: 1101
        case .invalidOption: 1102
        case .transport: 2100
        case .responseTooLarge: 2101
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL \(url.map { "'\($0)'" } ?? "(none)"): give an absolute http(s) or file URL"
        case .badImageData(let reason): reason.description
        case .cacheNotModified: "not modified (304): the cached image is still valid"
        case .blackListed(let url): "\(url.absoluteString) failed before and is blocked; load with .retryFailed to try again"
        case .invalidDownloadOperation(let why): "download not started: \(why)"
        case .invalidDownloadStatusCode(let status, _): "HTTP status \(status) is not acceptable"
        case .cancelled: "cancelled"
        case .invalidDownloadResponse(let why): "unusable response: \(why)"
        case .invalidDownloadContentType(let type): "content type \(type ?? "(none)") is not acceptable"
        case .encodingFailed(let format, let reason): "cannot encode \(format.rawValue): \(reason)"
        case .cacheFailure(let path, let reason): "cache failure at \(path): \(reason)"
        case .invalidOption(let why): "invalid option: \(why)"
        case .transport(let failure): failure.description
        case .responseTooLarge(let limit): "response larger than the \(limit)-byte limit; download stopped"
        }
    }

    public var errorDescription: String? { description }
}

/// Why bytes could not be decoded (error 1001).
public enum BadImageDataReason: Sendable, Hashable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are in a format no registered coder decodes.
    case unsupportedFormat(ImageFormat)
    /// The bytes end before the image does.
    case truncated
    /// The bytes break the format's rules; the text is the library's message.
    case corrupt(String)
    /// The image is larger than the decoder's pixel limit; rejected before allocating.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A frame index outside the image.
    case frameOutOfRange(index: Int, count: Int)
    /// The animation has more frames than ``ImageDecodeOptions/maxFrameCount``; rejected before decoding.
    case tooManyFrames(limit: Int)
    /// The animation's frames would composite more pixels in all (frames × canvas) than
    /// ``ImageDecodeOptions/maxAnimationPixelCount``; rejected before decoding.
    case animationTooLarge(frameCount: Int, pixelCount: Int, limit: Int)
    /// Compressed bytes (an SVGZ's gzip) inflate past `limit`, the smaller of the byte limit and the ratio limit
    /// for their size: a decompression bomb. Inflating stopped at the limit.
    case inflatesTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .empty: "empty image data"
        case .unsupportedFormat(let format):
            format == .undefined ? "unsupported format: the bytes match no known image signature"
                                 : "unsupported format: no coder decodes \(format.rawValue)"
        case .truncated: "truncated image data"
        case .corrupt(let message): "corrupt image data: \(message)"
        case .tooManyPixels(let w, let h, let limit):
            "too many pixels: \(w)x\(h) is over the limit of \(limit) pixels per frame"
        case .frameOutOfRange(let index, let count): "frame \(index) out of range (the image has \(count))"
        case .tooManyFrames(let limit):
            "too many frames: the animation has more than \(limit) (raise ImageDecodeOptions.maxFrameCount to decode it)"
        case .animationTooLarge(let frames, let pixels, let limit):
            "animation too large: \(frames) frames × canvas = \(pixels) pixels, over the limit of \(limit) "
                + "(raise ImageDecodeOptions.maxAnimationPixelCount to decode it)"
        case .inflatesTooLarge(let limit):
            "the compressed document inflates past \(limit) bytes (a decompression bomb); inflating stopped there"
        }
    }
}

/// A transport-level failure, kept distinct so callers can tell transient from permanent ones.
public struct TransportFailure: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case timeout, connectionRefused, connectionReset, hostNotFound, tls, tooManyRedirects, other
    }

    public var kind: Kind
    /// The underlying error's own text.
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether retrying later may succeed (timeouts, lost connections, DNS): such URLs are never blocked.
    public var isTransient: Bool {
        switch kind {
        case .timeout, .connectionRefused, .connectionReset, .hostNotFound: true
        case .tls, .tooManyRedirects, .other: false
        }
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
