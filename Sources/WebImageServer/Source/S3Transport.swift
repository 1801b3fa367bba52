import AWSSigV4
import Foundation
import WebImage

/// Loads `s3://BUCKET/KEY[?VERSION]` sources: a GET of the object from the configured store, signed with
/// Signature Version 4, over the same HTTP client as other sources (size limit, deadlines, streaming). The store
/// is the operator's, so no address policy applies and no redirect is followed.
struct S3Transport: ImageTransport {
    let store: ImageProxyConfiguration.S3
    let signer: any RequestSigning
    let http: HTTPClientTransport

    init(store: ImageProxyConfiguration.S3, idleTimeout: Duration) {
        self.store = store
        signer = SigV4Signer(credentials: store.credentials, region: store.region)
        http = HTTPClientTransport(timeout: idleTimeout, redirectLimit: 0, maxDecompressionRatio: 0)
    }

    func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == "s3" }

    func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        guard let object = S3Object(request.url),
              let location = store.location(bucket: object.bucket, key: object.key) else {
            handler.didComplete(error: .invalidURL("\(request.url.absoluteString) (give s3://BUCKET/KEY)"))
            return S3Refused()
        }
        let query = object.version.map { [(name: "versionId", value: $0)] } ?? []
        var url = location.url
        if let version = object.version, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedQuery = SigV4Signer.canonicalQuery([(name: "versionId", value: version)])
            url = components.url ?? url
        }
        let signed: [(name: String, value: String)] = [("Host", location.host),
                                                         ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash)]
        let authentication = signer.authenticationHeaders(
            for: SignableRequest(method: "GET", path: location.path, query: query, headers: signed),
            at: Date().timeIntervalSince1970)
        let headers = request.headers.filter { $0.name.lowercased() != "host" } + signed + authentication
        return http.start(TransportRequest(url: url, headers: headers), handler: handler)
    }

    func shutdown() async throws { try await http.shutdown() }
}

/// The bucket, key and version an `s3://` URL names (imgproxy's form: the whole query is the version id).
struct S3Object: Sendable, Equatable {
    var bucket: String
    var key: String
    var version: String?

    init?(_ url: URL) {
        guard url.scheme?.lowercased() == "s3", let bucket = url.host, !bucket.isEmpty else { return nil }
        let key = String(url.path.drop { $0 == "/" })
        guard !key.isEmpty else { return nil }
        self.bucket = bucket
        self.key = key
        version = url.query.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension S3Object {
    /// Checks an `s3://` source as written: S3 sources on (403 otherwise), a bucket and a key (400), and the
    /// allowlist of prefixes when there is one.
    static func check(_ source: String, store: ImageProxyConfiguration.S3?, policy: SourcePolicy) throws(ProxyError) -> URL {
        guard store != nil else {
            throw .sourceNotAllowed("S3 sources are off; start the server with --use-s3 (IMGPROXY_USE_S3)")
        }
        guard let url = URL(string: source), S3Object(url) != nil else {
            throw .badRequest("an S3 source is s3://BUCKET/KEY, with an optional ?VERSION")
        }
        try policy.checkPrefix(source)
        return url
    }
}

/// The task of a request refused before it started.
private struct S3Refused: TransportTask {
    func cancel() {}
}
