import WebImageCore
import Foundation
import Logging
import Metrics

extension ImageDownloader {
    /// The order queued downloads start in.
    public enum ExecutionOrder: Sendable, Hashable {
        /// First queued, first started.
        case fifo
        /// Last queued, first started: a new request runs before every pending one (SDWebImage 5).
        case lifo
    }

    /// A downloader's settings (SDWebImage's `SDWebImageDownloaderConfig`), fixed when the downloader is made.
    public struct Configuration: Sendable, InstrumentedConfiguration {
        /// Where the downloader logs — starts, joins, finishes and cancellations at `debug` (URL, status, bytes,
        /// duration), failures at `warning` with their ``WebImageError/code`` — and where its metrics
        /// (``WebImageMetrics``) are made, once, when the downloader is. Default
        /// `Instrumentation(label: "SwiftWebImage.ImageDownloader")`; `logger` and `metricsFactory` are its parts.
        public var instrumentation = Instrumentation(label: "SwiftWebImage.ImageDownloader")
        /// How many downloads run at once. Default 6.
        public var maxConcurrentDownloads: Int
        /// Give up on a download after this long without connecting or receiving bytes (an idle timeout, as
        /// SDWebImage's); 0 means 15. Default 15 seconds.
        public var downloadTimeout: Duration
        /// Give up on a download that has not completed this long after it started (leaving the queue): connecting,
        /// redirects and the whole body together, however steadily bytes arrive (URLSession's resource timeout,
        /// curl's `--max-time`). Fails with a ``TransportFailure/Kind/timeout`` transport error (2100), which the
        /// failed-URL list never blocks. Zero or less: no total limit. A request can set its own
        /// (``ImageDownloadRequest/totalTimeout``). Default 300 seconds: finite, so a server dripping bytes
        /// cannot hold a download slot forever, and long enough for the 100 MB default size limit at 3 Mbit/s.
        public var totalDownloadTimeout: Duration
        /// Report progress at most this often; clamped to 0…1 second. Default 0 (every chunk).
        public var minimumProgressInterval: Duration
        /// At most one partial progressive decode per this interval. Default 100 ms.
        public var minimumPartialDecodeInterval: Duration
        /// Start order of queued downloads. Default `.fifo`.
        public var executionOrder: ExecutionOrder
        /// Headers sent with every request. Default `Accept: image/*,*/*;q=0.8` and
        /// `User-Agent: SwiftWebImage/<version>`; change them at run time with
        /// ``ImageDownloader/setValue(_:forHTTPHeaderField:)``.
        public var httpHeaders: [(name: String, value: String)]
        /// User name answered to a `401` Basic challenge (once per download), with ``password``. Default nil.
        public var username: String?
        /// Password for ``username``. Default nil.
        public var password: String?
        /// Statuses that count as success. Default 200..<300.
        public var acceptableStatusCodes: Set<Int>
        /// Media types (`image/png`, lowercased) accepted; nil accepts any. Default nil.
        public var acceptableContentTypes: Set<String>?
        /// Stop and fail a download whose body grows past this many bytes (counted after `Content-Encoding`
        /// decoding; `file://` reads stop here too) with `responseTooLarge` (2101). Default
        /// ``MemoryBudget/defaultMaxResponseBytes``: 5 % of the memory available to the process, between 8 MB
        /// and 100 MB (100 MB on a machine with 2 GB or more). 0 or less refuses every non-empty body.
        public var maxResponseBytes: Int
        /// Bodies sent with `Content-Encoding: gzip` or `deflate` are decoded by the HTTP transport (which asks
        /// for them with `Accept-Encoding: deflate, gzip`); one inflating to more than this many times its
        /// compressed size is a decompression bomb and fails with `invalidDownloadResponse` (2003). 0 turns
        /// decoding off (and stops asking for encoded bodies). Default 25, as AsyncHTTPClient's browser-like
        /// preset: image formats are compressed already, so their honest encodings inflate about 1×.
        public var maxDecompressionRatio: Int
        /// Redirects followed before failing with `tooManyRedirects`. Default 10.
        public var redirectLimit: Int
        /// Accept any TLS certificate on every request (testing only). Default false.
        public var allowInvalidSSLCertificates: Bool

        /// SwiftWebImage's version, sent in the default `User-Agent`.
        public static let version = "1.0.0"

        /// The default settings.
        public static var `default`: Configuration { Configuration() }

        /// Settings with every default as documented on each property.
        public init(maxConcurrentDownloads: Int = 6, downloadTimeout: Duration = .seconds(15),
                    totalDownloadTimeout: Duration = .seconds(300),
                    minimumProgressInterval: Duration = .zero, minimumPartialDecodeInterval: Duration = .milliseconds(100),
                    executionOrder: ExecutionOrder = .fifo,
                    httpHeaders: [(name: String, value: String)] = [("Accept", "image/*,*/*;q=0.8"),
                                                                    ("User-Agent", "SwiftWebImage/\(Configuration.version)")],
                    username: String? = nil, password: String? = nil,
                    acceptableStatusCodes: Set<Int> = Set(200..<300), acceptableContentTypes: Set<String>? = nil,
                    maxResponseBytes: Int = MemoryBudget.defaultMaxResponseBytes, maxDecompressionRatio: Int = 25,
                    redirectLimit: Int = 10,
                    allowInvalidSSLCertificates: Bool = false) {
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.downloadTimeout = downloadTimeout
            self.totalDownloadTimeout = totalDownloadTimeout
            self.minimumProgressInterval = minimumProgressInterval
            self.minimumPartialDecodeInterval = minimumPartialDecodeInterval
            self.executionOrder = executionOrder
            self.httpHeaders = httpHeaders
            self.username = username
            self.password = password
            self.acceptableStatusCodes = acceptableStatusCodes
            self.acceptableContentTypes = acceptableContentTypes
            self.maxResponseBytes = maxResponseBytes
            self.maxDecompressionRatio = maxDecompressionRatio
            self.redirectLimit = redirectLimit
            self.allowInvalidSSLCertificates = allowInvalidSSLCertificates
        }

        /// ``downloadTimeout`` with 0 (or less) meaning 15 seconds.
        var effectiveTimeout: Duration { downloadTimeout > .zero ? downloadTimeout : .seconds(15) }
        /// ``minimumProgressInterval`` clamped to 0…1 second.
        var effectiveProgressInterval: Duration { min(max(minimumProgressInterval, .zero), .seconds(1)) }
        /// ``maxConcurrentDownloads``, at least 1.
        var effectiveConcurrency: Int { max(1, maxConcurrentDownloads) }
        /// The `Authorization` header answering a Basic challenge, when credentials are set.
        var basicAuthorization: String? {
            guard let username else { return nil }
            return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
        }
    }
}
