/// What a signer needs of an HTTP request: the method, the path and query as text (not percent-encoded: the
/// signer encodes them as SigV4 says), the headers in the order they will be sent, and the body's SHA-256.
public struct SignableRequest: Sendable {
    public var method: String
    /// `/bucket/key` as the characters of the key (`/a b/ሴ`), not percent-encoded.
    public var path: String
    /// Name and value pairs, not percent-encoded; a name without a value is `(name, "")`.
    public var query: [(name: String, value: String)]
    public var headers: [(name: String, value: String)]
    /// Lowercase hex SHA-256 of the body (``SigV4Signer/emptyPayloadHash`` for none), or `UNSIGNED-PAYLOAD`.
    public var payloadHash: String

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], payloadHash: String = SigV4Signer.emptyPayloadHash) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }
}

/// Adds the headers that authenticate a request (a store's signature scheme), so the transport that sends it
/// need not know the scheme.
public protocol RequestSigning: Sendable {
    /// The headers to send besides the request's own, for a request sent at `date`.
    func authenticationHeaders(for request: SignableRequest, at date: Double) -> [(name: String, value: String)]
}
