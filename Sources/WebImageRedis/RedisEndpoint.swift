/// Where a Redis server is: `redis://[:password@]host[:port][/db]`.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    /// Default 6379.
    public var port: Int
    /// The database `SELECT`ed on connecting. Default 0.
    public var database: Int
    /// Sent with `AUTH` on connecting. Default nil.
    public var password: String?

    public init(host: String, port: Int = 6379, database: Int = 0, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    /// Parses `redis://[:password@]host[:port][/db]`; nil when it is not of that form.
    public init?(url: String) {
        guard url.hasPrefix("redis://") else { return nil }
        var rest = Substring(url.dropFirst("redis://".count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            password = String(credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).last ?? "")
            rest = rest[rest.index(after: at)...]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let text = rest[rest.index(after: slash)...]
            if !text.isEmpty {
                guard let value = Int(text), (0...15_999).contains(value) else { return nil }
                database = value
            }
            rest = rest[..<slash]
        }
        var port = 6379
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let value = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(value) else { return nil }
            port = value
            rest = rest[..<colon]
        }
        if rest.hasPrefix("["), rest.hasSuffix("]") { rest = rest.dropFirst().dropLast() }
        guard !rest.isEmpty else { return nil }
        self.init(host: String(rest), port: port, database: database, password: password.flatMap { $0.isEmpty ? nil : $0 })
    }

    public var description: String { "redis://\(host):\(port)/\(database)" }
}
