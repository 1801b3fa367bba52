extension SigV4Signer {
    /// Every header of an S3 request, signed as S3 checks them: `Host`, `x-amz-content-sha256` (S3 refuses a
    /// request without it: the body's ``payloadHash(of:)`` for a `PUT`, ``emptyPayloadHash`` for a `GET`), then
    /// `headers` (S3 also refuses an `x-amz-*` header, such as `x-amz-meta-*` metadata, that is not signed), then
    /// ``authenticationHeaders(for:at:)``'s. `path` is as in ``SignableRequest/path``: send the request on
    /// ``encodedPath(_:)`` of it.
    public func s3Headers(method: String, host: String, path: String, query: [(name: String, value: String)] = [],
                          headers: [(name: String, value: String)] = [], payloadHash: String = emptyPayloadHash,
                          at date: Double) -> [(name: String, value: String)] {
        let signed = [(name: "Host", value: host), (name: "x-amz-content-sha256", value: payloadHash)] + headers
        let request = SignableRequest(method: method, path: path, query: query, headers: signed, payloadHash: payloadHash)
        return signed + authenticationHeaders(for: request, at: date)
    }
}
