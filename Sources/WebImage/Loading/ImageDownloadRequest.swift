import WebImageCore
import Foundation

/// One caller's download: the URL, its options, how to decode, and the hooks that rewrite bytes on the way.
///
/// The URL, options, modifiers, decryptor, validators and total timeout of the **first** caller of a URL shape
/// the shared network request (as in SDWebImage); the decode options and `progressiveLoad` are each caller's own.
public struct ImageDownloadRequest: Sendable {
    /// The image URL (http, https or file).
    public var url: URL
    /// Per-request options. Default none.
    public var options: WebImageDownloaderOptions
    /// How this caller wants the bytes decoded (thumbnail size, scale…). Default: full size.
    public var decodeOptions: ImageDecodeOptions
    /// Rewrites the outgoing request; returning nil fails with `invalidDownloadOperation` (2000) and
    /// nothing is sent.
    public var requestModifier: (@Sendable (TransportRequest) -> TransportRequest?)?
    /// Rewrites the response head; returning nil fails with `invalidDownloadResponse` (2003).
    public var responseModifier: (@Sendable (TransportResponseHead) -> TransportResponseHead?)?
    /// Turns the downloaded bytes into image bytes (e.g. decrypts them); returning nil fails with
    /// `badImageData` (1001).
    public var decryptor: (@Sendable (Data, TransportResponseHead?) -> Data?)?
    /// The `ETag`/`Last-Modified` stored with the cached copy, sent as conditions with ``WebImageDownloaderOptions/refreshCached``.
    public var cachedValidators: HTTPValidators?
    /// The longest the whole download may take once started; nil uses the downloader's
    /// ``ImageDownloader/Configuration/totalDownloadTimeout``, zero or less sets no limit. Default nil.
    public var totalTimeout: Duration?

    /// A request for `url`; every other part defaults to none (full-size decode, no hooks, no validators,
    /// the downloader's total timeout).
    public init(url: URL, options: WebImageDownloaderOptions = [], decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
                requestModifier: (@Sendable (TransportRequest) -> TransportRequest?)? = nil,
                responseModifier: (@Sendable (TransportResponseHead) -> TransportResponseHead?)? = nil,
                decryptor: (@Sendable (Data, TransportResponseHead?) -> Data?)? = nil,
                cachedValidators: HTTPValidators? = nil, totalTimeout: Duration? = nil) {
        self.url = url
        self.options = options
        self.decodeOptions = decodeOptions
        self.requestModifier = requestModifier
        self.responseModifier = responseModifier
        self.decryptor = decryptor
        self.cachedValidators = cachedValidators
        self.totalTimeout = totalTimeout
    }
}

/// A finished download for one caller: the image decoded with its options, the bytes, and the response.
public struct ImageDownloadResult: Sendable {
    /// The image, decoded with this caller's ``ImageDownloadRequest/decodeOptions``.
    public var image: Image
    /// The downloaded bytes (after the decryptor), for the cache to store.
    public var data: Data
    /// The response head (nil only for transports that send none).
    public var response: TransportResponseHead?
    /// The response's validators, for the cache to store and send back with ``WebImageDownloaderOptions/refreshCached``.
    public var validators: HTTPValidators?

    /// A result as a loader delivers it; custom ``ImageLoading`` implementations build theirs with this.
    /// `validators` defaults to those of `response`.
    public init(image: Image, data: Data, response: TransportResponseHead? = nil, validators: HTTPValidators? = nil) {
        self.image = image
        self.data = data
        self.response = response
        self.validators = validators ?? response.flatMap(HTTPValidators.init(head:))
    }
}
