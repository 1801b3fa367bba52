import WebImageCore

/// An HTTP response's cache validators, stored with a downloaded image and sent back to revalidate it.
public struct HTTPValidators: Sendable, Hashable {
    /// The `ETag` header, verbatim (quotes included).
    public var etag: String?
    /// The `Last-Modified` header, verbatim.
    public var lastModified: String?

    /// Validators from stored header values.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The validators of a response head, or nil when it has neither.
    public init?(head: TransportResponseHead) {
        let etag = head.value(forHeader: "ETag"), lastModified = head.value(forHeader: "Last-Modified")
        guard etag != nil || lastModified != nil else { return nil }
        self.init(etag: etag, lastModified: lastModified)
    }

    /// The conditional headers that ask the server whether the cached copy is still current.
    public var conditionalHeaders: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }
}
