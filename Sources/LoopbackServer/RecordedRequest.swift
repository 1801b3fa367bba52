import Foundation

/// One request the ``TestHTTPServer`` received, as the client sent it.
public struct RecordedRequest: Sendable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The path without the query.
    public var path: String
    /// The full request target (path and query).
    public var uri: String
    /// Request headers in the order sent.
    public var headers: [(name: String, value: String)]
    /// The request body (the first 16 MB).
    public var body = Data()

    /// The first value of a header (case-insensitive name), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
