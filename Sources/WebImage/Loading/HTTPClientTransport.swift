import WebImageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The default http(s) transport: one AsyncHTTPClient `HTTPClient` on NIO's shared event loops.
///
/// Measured here at ≈ 8× the throughput of URLSession, whose progress does not work on Linux. The client
/// streams the head and body chunks to the handler, follows up to `redirectLimit`
/// redirects and gives up after `timeout` without connecting or reading. Bodies with `Content-Encoding: gzip`
/// or `deflate` reach the handler decoded (the head keeps its headers, `Content-Length` counting the encoded
/// bytes). Call ``shutdown()`` when done; an instance released without it shuts its client down in `deinit`.
///
/// The handler runs on NIO's event loops through AsyncHTTPClient's delegate API: no task, no hop to another
/// thread per body part, and nothing on the cooperative pool (where long decodes or blocking callers elsewhere
/// in the process would stall a download). The handler's per-part work is short; decoding and completions run
/// on the downloader's delivery queue.
public final class HTTPClientTransport: ImageTransport {
    private let client: HTTPClient
    /// The client's event loops; each host's requests stay on one of them (see ``eventLoop(for:)``).
    private let eventLoops: [any EventLoop]
    private let isShutDown = Atomic<Bool>(false)
    /// Per-request TLS settings that accept any certificate (for `allowInvalidSSLCertificates` requests).
    private let insecureTLS = HTTPClient.Configuration(certificateVerification: .none).tlsConfiguration
    /// How many redirects a request follows; 0 hands 3xx answers to the handler.
    let redirectLimit: Int

    /// A transport whose connect and read timeouts are `timeout`, following at most `redirectLimit` redirects,
    /// accepting invalid certificates on every request when `allowInvalidSSLCertificates`, and decoding gzip and
    /// deflate bodies that inflate at most `maxDecompressionRatio` times (0: no decoding, nothing asked for).
    /// `dnsOverride` connects to another host (or an address) for the hosts it names while TLS still
    /// verifies the named host: an image service pins a connection to the address it checked. Default none.
    /// `additionalTrustRootFiles` are PEM files of certificate authorities trusted besides the system's (an
    /// internal CA), read when a connection is made. Default none.
    public init(timeout: Duration = .seconds(15), redirectLimit: Int = 10, allowInvalidSSLCertificates: Bool = false,
                maxDecompressionRatio: Int = 25, dnsOverride: [String: String] = [:],
                additionalTrustRootFiles: [String] = []) {
        let amount = TimeAmount.nanoseconds(Int64(Self.nanoseconds(timeout)))
        var configuration = allowInvalidSSLCertificates
            ? HTTPClient.Configuration(certificateVerification: .none)
            : HTTPClient.Configuration()
        if !allowInvalidSSLCertificates, !additionalTrustRootFiles.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = additionalTrustRootFiles.map { .file($0) }
            configuration.tlsConfiguration = tls
        }
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: amount, read: amount)
        // Redirects are followed here (``RedirectChain``), each target checked before AsyncHTTPClient sees it.
        configuration.redirectConfiguration = .disallow
        self.redirectLimit = redirectLimit
        configuration.decompression = maxDecompressionRatio > 0
            ? .enabled(limit: .ratio(maxDecompressionRatio)) : .disabled
        // A refused connection should fail now, not be retried until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.dnsOverride = dnsOverride
        // AsyncHTTPClient's own spans off: on the event loops it makes them without a parent, each a trace of its own
        // (the image service's `webimage.download` span covers a transfer in the request's trace).
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        eventLoops = Array(client.eventLoopGroup.makeIterator())
    }

    deinit {
        if !isShutDown.exchange(true, ordering: .acquiringAndReleasing) {
            client.shutdown().whenComplete { _ in }
        }
    }

    public func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    public func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        guard redirectLimit > 0 else { return startHop(request, handler: handler) }
        let chain = RedirectChain(transport: self, request: request, handler: handler)
        chain.run(request)
        return chain
    }

    /// One request, no redirect followed: the URL is checked first (``URLValidation``), since AsyncHTTPClient
    /// traps on some URLs Foundation accepts.
    func startHop(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        let eventLoop = eventLoop(for: request.url)
        let clientRequest: HTTPClient.Request
        do {
            try URLValidation.validate(request.url)
            clientRequest = try HTTPClient.Request(url: request.url, headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }),
                                                   tlsConfiguration: request.allowInvalidSSLCertificates ? insecureTLS : nil)
        } catch {
            // Like every other failure, reported after `start` returns.
            eventLoop.execute { handler.didComplete(error: TransportErrorMapping.map(error)) }
            return CompletedTransportTask()
        }
        let task = client.execute(request: clientRequest, delegate: ResponseForwarder(handler: handler, url: request.url),
                                  eventLoop: .delegate(on: eventLoop))
        // Exactly one completion, after the delegate's last call: the task's result covers every end (finished,
        // failed, cancelled).
        task.futureResult.whenComplete { result in
            switch result {
            case .success: handler.didComplete(error: nil)
            case .failure(let error): handler.didComplete(error: TransportErrorMapping.map(error))
            }
        }
        return ClientTask(task: task)
    }

    public func shutdown() async throws {
        if !isShutDown.exchange(true, ordering: .acquiringAndReleasing) {
            try await client.shutdown()
        }
    }

    /// The loop that runs `url`'s requests: always the same one for a host.
    ///
    /// The pool opens a request's new connections on its preferred loop, so a host's connections all end up on
    /// its loop and the delegate runs where the bytes are read: no hop per body part. Hosts still spread over
    /// the loops. (`.delegateAndChannel(on:)` would open a throwaway connection whenever none is idle there.)
    private func eventLoop(for url: URL) -> any EventLoop {
        var hasher = Hasher()
        hasher.combine(url.host)
        hasher.combine(url.port)
        return eventLoops[Int(UInt(bitPattern: hasher.finalize()) % UInt(eventLoops.count))]
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return min(Double(seconds) * 1e9 + Double(attoseconds) / 1e9, Double(Int64.max / 2))
    }
}

/// Cancels the AsyncHTTPClient request.
private struct ClientTask: TransportTask {
    let task: HTTPClient.Task<Void>
    func cancel() { task.cancel() }
}
