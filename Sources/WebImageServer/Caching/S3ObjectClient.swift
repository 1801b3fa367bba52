import AsyncHTTPClient
import AWSSigV4
import Foundation
import NIOCore
import NIOHTTP1

/// Why a call to the result store failed: the `reason` dimension of its metrics.
enum ResultStoreError: Error, Equatable, Sendable {
    /// The deadline passed first (connecting included).
    case timeout
    /// The connection was refused or lost.
    case connection
    /// The store answered this error status (a 403 other than a missing key's, a 5xx…).
    case status(Int)
    /// The circuit breaker is open: the store was not asked.
    case unavailable

    var metricReason: String {
        switch self {
        case .timeout: "timeout"
        case .connection: "connection"
        case .status: "status"
        case .unavailable: "unavailable"
        }
    }
}

/// Whole objects of one bucket read (`GetObject`) and written (`PutObject`) over HTTP, each request signed with
/// Signature Version 4 and over within its deadline, the body's transfer included. The store is the operator's:
/// no address policy applies and no redirect is followed.
struct S3ObjectClient: Sendable {
    let store: ImageProxyConfiguration.S3
    let bucket: String
    private let signer: SigV4Signer
    private let http: HTTPClient

    /// A client whose connections must be made within `connectTimeout`.
    init(store: ImageProxyConfiguration.S3, bucket: String, connectTimeout: Duration) {
        self.store = store
        self.bucket = bucket
        signer = SigV4Signer(credentials: store.credentials, region: store.region)
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: TimeAmount(connectTimeout))
        // A refused connection fails the call at once instead of being tried again until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The lookup's own span covers the call; no trace headers go to the store.
        configuration.tracing.tracer = nil
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// What a read found.
    enum Read: Sendable {
        /// The object's bytes and the headers it came with (its `x-amz-meta-*` metadata among them).
        case found(body: ByteBuffer, headers: HTTPHeaders)
        /// No object under the key: 404, or 403 `AccessDenied`, which S3 answers for a missing key to a reader
        /// not allowed `s3:ListBucket`.
        case absent
        /// An object larger than the reader takes.
        case tooLarge
    }

    /// The object under `key`, read within `deadline`.
    func get(_ key: String, maxBytes: Int, within deadline: Duration) async throws(ResultStoreError) -> Read {
        let request = try signed(.GET, key: key)
        let http = self.http
        return try await Self.bounded(deadline) { () async -> Result<Read, ResultStoreError> in
            do {
                let response = try await http.execute(request, deadline: .now() + TimeAmount(deadline))
                switch response.status.code {
                case 200:
                    do {
                        return .success(.found(body: try await response.body.collect(upTo: maxBytes),
                                               headers: response.headers))
                    } catch is NIOTooManyBytesError {
                        return .success(.tooLarge)
                    }
                case 404:
                    return .success(.absent)
                case let status:
                    let error = String(buffer: try await response.body.collect(upTo: Self.errorBodyBytes))
                    return status == 403 && error.contains("<Code>AccessDenied</Code>") ? .success(.absent)
                                                                                         : .failure(.status(Int(status)))
                }
            } catch {
                return .failure(Self.failure(error))
            }
        }
    }

    /// Writes `body` under `key` with `headers` (signed with it) within `deadline`.
    func put(_ key: String, _ body: [UInt8], headers: [(name: String, value: String)],
             within deadline: Duration) async throws(ResultStoreError) {
        let request = try signed(.PUT, key: key, body: body, headers: headers)
        let http = self.http
        try await Self.bounded(deadline) { () async -> Result<Void, ResultStoreError> in
            do {
                let response = try await http.execute(request, deadline: .now() + TimeAmount(deadline))
                // Read to the end, so the connection is kept for the next call.
                _ = try await response.body.collect(upTo: Self.errorBodyBytes)
                return (200..<300).contains(response.status.code) ? .success(()) : .failure(.status(Int(response.status.code)))
            } catch {
                return .failure(Self.failure(error))
            }
        }
    }

    func shutdown() async {
        try? await http.shutdown()
    }

    /// The most of an error answer (S3's XML) or of a `PUT`'s answer read.
    static let errorBodyBytes = 64 << 10

    /// The request for `key`, signed now.
    private func signed(_ method: HTTPMethod, key: String, body: [UInt8]? = nil,
                        headers: [(name: String, value: String)] = []) throws(ResultStoreError) -> HTTPClientRequest {
        // The bucket and the endpoint were checked when the store was configured; a key is hex.
        guard let location = store.location(bucket: bucket, key: key) else { throw .connection }
        let payloadHash = body.map { SigV4Signer.payloadHash(of: Data($0)) } ?? SigV4Signer.emptyPayloadHash
        var request = HTTPClientRequest(url: location.url.absoluteString)
        request.method = method
        let sent = signer.s3Headers(method: method.rawValue, host: location.host, path: location.path, headers: headers,
                                    payloadHash: payloadHash, at: Date().timeIntervalSince1970)
        // The client writes `Host` from the URL, as signed.
        for (name, value) in sent where name != "Host" { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    /// `work`'s result, or ``ResultStoreError/timeout`` once `deadline` has passed (`work` is then cancelled).
    private static func bounded<Value: Sendable>(_ deadline: Duration,
                                                 _ work: @escaping @Sendable () async -> Result<Value, ResultStoreError>)
        async throws(ResultStoreError) -> Value {
        let outcome: Result<Value, ResultStoreError>
        do throws(ProxyError) {
            outcome = try await WorkDeadline(.now + deadline).bound(timeout: .gatewayTimeout("the result store")) {
                await work()
            }
        } catch {
            throw .timeout
        }
        return try outcome.get()
    }

    private static func failure(_ error: any Error) -> ResultStoreError {
        if let error = error as? HTTPClientError,
           [HTTPClientError.deadlineExceeded, .connectTimeout, .readTimeout].contains(error) {
            return .timeout
        }
        return .connection
    }
}
