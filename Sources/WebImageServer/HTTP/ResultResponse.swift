import Foundation

extension ProxyResponse {
    /// The 200 (or 304 when the client's copy is current) for a result.
    static func result(_ result: ProcessedResult, for request: ProxyRequest, variesByAccept: Bool, ttl: Int)
        -> ProxyResponse {
        var headers = hardening
        headers.append(("Cache-Control", "public, max-age=\(max(0, ttl)), immutable"))
        headers.append(("ETag", result.etag))
        headers.append(("Last-Modified", HTTPDate.format(result.lastModified)))
        if variesByAccept { headers.append(("Vary", "Accept")) }
        if isCurrent(result, for: request) { return ProxyResponse(status: 304, headers: headers) }
        headers.append(("Content-Type", result.format.mimeType ?? "application/octet-stream"))
        headers.append(("Content-Length", String(result.data.count)))
        return ProxyResponse(status: 200, headers: headers, body: request.isHead ? Data() : result.data)
    }

    /// `If-None-Match` wins when present (any listed tag, or `*`); else `If-Modified-Since` at or after the result.
    private static func isCurrent(_ result: ProcessedResult, for request: ProxyRequest) -> Bool {
        if let tags = request.ifNoneMatch {
            return tags.split(separator: ",").contains { tag in
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                let opaque = trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
                return opaque == "*" || opaque == result.etag
            }
        }
        if let since = request.ifModifiedSince.flatMap(HTTPDate.parse) {
            return result.lastModified <= since
        }
        return false
    }
}
