import WebImageCore
import Foundation
import Synchronization

/// Downloads images over HTTP(S) or from files: coalesced per URL, queued by priority, with progress,
/// progressive partial images, revalidation and per-caller decoding (SDWebImage's `SDWebImageDownloader`).
///
/// One network task serves every caller of a URL while it is neither finished nor cancelled; each caller
/// has its own token, handlers and decode options. Handlers run on the downloader's background threads:
/// progress on the network thread (keep it short), partial images and completions on the delivery queue.
///
/// ```swift
/// let token = ImageDownloader.shared.downloadImage(with: ImageDownloadRequest(url: url)) { result in
///     if case .success(let download) = result { show(download.image) }
/// }
/// ```
public final class ImageDownloader: ImageLoading {
    /// (received, expected) bytes; expected is −1 until the length is known.
    public typealias ProgressHandler = @Sendable (_ received: Int, _ expected: Int) -> Void
    /// A partial image of a progressive download (``Image/isIncremental`` is true).
    public typealias PartialImageHandler = @Sendable (Image) -> Void
    /// The result, called exactly once per request.
    public typealias CompletionHandler = @Sendable (Result<ImageDownloadResult, WebImageError>) -> Void

    struct Registry {
        var operations: [URL: DownloadOperation] = [:]
        var queue: DownloadQueue<DownloadOperation>
        var running = 0
        var headers: [(name: String, value: String)]
        var nextCallerID = 0
    }

    /// The process-wide downloader with the default configuration.
    public static let shared = ImageDownloader()

    /// The settings this downloader was made with.
    public let configuration: Configuration
    let transport: any ImageTransport
    let coders: CodersManager
    let events = DownloadEventCenter()
    /// The logger and metrics of ``Configuration/logger`` and ``Configuration/metricsFactory``.
    let instruments: DownloadInstruments
    /// Cookies for requests with ``WebImageDownloaderOptions/handleCookies``.
    public let cookies = CookieJar()
    /// Where decoding, decrypting and completions run: off the event loops and the cooperative pool.
    let deliveryQueue = DispatchQueue(label: "SwiftWebImage.ImageDownloader.delivery", qos: .userInitiated,
                                      attributes: .concurrent)
    private let registry: Mutex<Registry>

    /// A downloader with `configuration`, decoding with `coders`; `transport` defaults to AsyncHTTPClient for
    /// http(s) and ``FileTransport`` for `file://`.
    public init(configuration: Configuration = .default, transport: (any ImageTransport)? = nil,
                coders: CodersManager = .shared) {
        self.configuration = configuration
        self.transport = transport ?? RoutingTransport([
            FileTransport(maxBytes: configuration.maxResponseBytes),
            HTTPClientTransport(timeout: configuration.effectiveTimeout, redirectLimit: configuration.redirectLimit,
                                allowInvalidSSLCertificates: configuration.allowInvalidSSLCertificates,
                                maxDecompressionRatio: configuration.maxDecompressionRatio),
        ])
        self.coders = coders
        instruments = DownloadInstruments(logger: configuration.logger, factory: configuration.metricsFactory)
        registry = Mutex(Registry(queue: DownloadQueue(order: configuration.executionOrder),
                                  headers: configuration.httpHeaders))
    }

    /// Downloads queued or running (not yet delivered).
    public var currentDownloadCount: Int { registry.withLock { $0.operations.count } }

    /// The value sent for a header with every request, or nil.
    public func value(forHTTPHeaderField name: String) -> String? {
        registry.withLock { $0.headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
    }

    /// Sets (or with nil removes) a header sent with every later request.
    public func setValue(_ value: String?, forHTTPHeaderField name: String) {
        registry.withLock { registry in
            registry.headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let value { registry.headers.append((name, value)) }
        }
    }

    /// Calls `handler` with every download's events (start, response, stop, finish).
    public func addObserver(_ handler: @escaping @Sendable (DownloadEvent) -> Void) -> DownloadObserverToken {
        events.add(handler)
    }

    /// Stops calling the observer `token` names.
    public func removeObserver(_ token: DownloadObserverToken) {
        events.remove(token)
    }

    public func canRequestImage(for url: URL) -> Bool { transport.canLoad(url) }

    public func requestImage(_ request: ImageDownloadRequest, progress: ProgressHandler?,
                             partialImage: PartialImageHandler?,
                             completion: @escaping CompletionHandler) -> any ImageLoadingToken {
        downloadImage(with: request, progress: progress, partialImage: partialImage, completion: completion)
    }

    /// Fails every caller with `cancelled` and stops every download.
    public func cancelAllDownloads() {
        let operations = registry.withLock { registry in
            defer { registry.operations.removeAll() }
            _ = registry.queue.removeAll()
            return Array(registry.operations.values)
        }
        for operation in operations { operation.cancelAll() }
    }

    /// Cancels everything and releases the transport (its connections and client); use for custom instances.
    public func shutdown() async throws {
        cancelAllDownloads()
        try await transport.shutdown()
    }

    /// Starts (or joins) the download of `request.url`; see ``ImageDownloader`` for the threads handlers run on.
    @discardableResult
    public func downloadImage(with request: ImageDownloadRequest, progress: ProgressHandler? = nil,
                              partialImage: PartialImageHandler? = nil,
                              completion: @escaping CompletionHandler) -> ImageDownloadToken {
        attach(request, progress: progress, partialImage: partialImage, completion: completion, bytesCompletion: nil)
    }

    /// Starts (or joins) the download of `request.url` for one caller; `bytesCompletion` set delivers the body
    /// undecoded.
    func attach(_ request: ImageDownloadRequest, progress: ProgressHandler?, partialImage: PartialImageHandler?,
                completion: @escaping CompletionHandler,
                bytesCompletion: (@Sendable (DownloadedBody) -> Void)?) -> ImageDownloadToken {
        guard transport.canLoad(request.url) else {
            return fail(request.url, .invalidURL("\(request.url.absoluteString) (use an http, https or file URL)"), completion)
        }
        if let problem = URLValidation.problem(with: request.url) {
            return fail(request.url, URLValidation.invalid(request.url, problem), completion)
        }
        let id = registry.withLock { $0.nextCallerID += 1; return $0.nextCallerID }
        let caller = DownloadCaller(id: id, decodeOptions: request.decodeOptions,
                                    wantsPartials: request.options.contains(.progressiveLoad), progress: progress,
                                    partialImage: partialImage, completion: completion,
                                    bytesCompletion: bytesCompletion)
        var prepared: TransportRequest?
        while true {
            switch join(caller, request: request, prepared: prepared) {
            case .joined(let operation):
                reportJoined(request.url)
                return ImageDownloadToken(url: request.url, callerID: id, operation: operation)
            case .finishing(let operation, let outcome):
                reportJoined(request.url)
                operation.deliver(outcome, to: [caller])
                return ImageDownloadToken(url: request.url, callerID: id, operation: operation)
            case .created(let operation, let startable):
                start(startable)
                return ImageDownloadToken(url: request.url, callerID: id, operation: operation)
            case .needsRequest(let headers):
                guard let built = makeTransportRequest(request, headers: headers) else {
                    return fail(request.url, .invalidDownloadOperation("the request modifier returned nil"), completion)
                }
                prepared = built
            }
        }
    }

    private enum JoinStep {
        case joined(DownloadOperation)
        case finishing(DownloadOperation, DownloadOutcome)
        case created(DownloadOperation, startable: [DownloadOperation])
        case needsRequest(headers: [(name: String, value: String)])
    }

    /// Under the lock: attach to the URL's live task, or create one once the request is prepared.
    private func join(_ caller: DownloadCaller, request: ImageDownloadRequest, prepared: TransportRequest?) -> JoinStep {
        registry.withLock { registry in
            if let existing = registry.operations[request.url] {
                switch existing.attach(caller) {
                case .attached: return .joined(existing)
                case .deliverNow(let outcome): return .finishing(existing, outcome)
                case .closed: registry.operations[request.url] = nil
                }
            }
            guard let prepared else { return .needsRequest(headers: registry.headers) }
            let operation = DownloadOperation(request: request, transportRequest: prepared, downloader: self)
            _ = operation.attach(caller)
            registry.operations[request.url] = operation
            registry.queue.enqueue(operation, priority: operation.priority)
            return .created(operation, startable: takeStartable(&registry))
        }
    }

    /// The request sent for a new task: default headers, validators, cookies, then the request modifier.
    private func makeTransportRequest(_ request: ImageDownloadRequest, headers: [(name: String, value: String)]) -> TransportRequest? {
        var transportRequest = TransportRequest(
            url: request.url, headers: headers,
            allowInvalidSSLCertificates: configuration.allowInvalidSSLCertificates
                || request.options.contains(.allowInvalidSSLCertificates))
        if request.options.contains(.refreshCached), let validators = request.cachedValidators {
            for header in validators.conditionalHeaders { transportRequest.setValue(header.value, forHeader: header.name) }
        }
        if request.options.contains(.handleCookies), let cookie = cookies.cookieHeader(for: request.url) {
            transportRequest.setValue(cookie, forHeader: "Cookie")
        }
        guard let modifier = request.requestModifier else { return transportRequest }
        return modifier(transportRequest)
    }

    private func fail(_ url: URL, _ error: WebImageError, _ completion: @escaping CompletionHandler) -> ImageDownloadToken {
        reportRefused(url, error)
        deliveryQueue.async { completion(.failure(error)) }
        return ImageDownloadToken(url: url, callerID: -1, operation: nil)
    }

    /// Pending tasks that fit under the concurrency limit, each counted as running.
    private func takeStartable(_ registry: inout Registry) -> [DownloadOperation] {
        var startable: [DownloadOperation] = []
        while registry.running < configuration.effectiveConcurrency, let next = registry.queue.dequeue() {
            registry.running += 1
            startable.append(next)
        }
        return startable
    }

    /// Starts tasks taken from the queue; a task whose callers all left gives its slot to the next.
    private func start(_ operations: [DownloadOperation]) {
        for operation in operations where !operation.start() {
            releaseSlot()
        }
    }

    /// A running task ended: start the next pending ones.
    func releaseSlot() {
        let startable = registry.withLock { registry in
            registry.running -= 1
            return takeStartable(&registry)
        }
        start(startable)
    }

    /// Forgets a finished or cancelled task so the next caller of its URL starts a new one.
    func unregister(_ operation: DownloadOperation) {
        registry.withLock { registry in
            if registry.operations[operation.url] === operation {
                registry.operations[operation.url] = nil
            }
        }
    }
}
