/// What the service reads from a request: the method, the raw target and the headers it negotiates and
/// revalidates with.
public struct ProxyRequest: Sendable {
    public var isHead: Bool
    /// The request target as sent (percent-encoding untouched: the signature covers it), query included.
    public var target: String
    public var accept: String?
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    /// When the request arrived: the processing timeout counts from here, queue included (imgproxy's
    /// `IMGPROXY_TIMEOUT`). Default: when the value is made.
    public var arrival: ContinuousClock.Instant

    public init(isHead: Bool = false, target: String, accept: String? = nil, ifNoneMatch: String? = nil,
                ifModifiedSince: String? = nil, arrival: ContinuousClock.Instant = .now) {
        self.arrival = arrival
        self.isHead = isHead
        self.target = target
        self.accept = accept
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
    }

    /// The path without the query (found on the bytes: a split walks the target by characters, a request's
    /// worth of time on a long path).
    var path: Substring { target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)] }
}
