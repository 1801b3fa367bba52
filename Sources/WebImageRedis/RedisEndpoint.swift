import Foundation
import NIOCore

/// Where a Redis server is and how to log in: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://…` for
/// TLS (with ``RedisClient/Configuration/tls``'s trust and client certificate). `redis-cluster://` and
/// `rediss-cluster://` name seeds of a Redis Cluster (``isCluster``), whose other nodes are found from them.
///
/// The password is never part of ``description`` nor of any error or log line the client makes.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    /// Default 6379.
    public var port: Int
    /// The database `SELECT`ed on connecting. Default 0 (a cluster has no other).
    public var database: Int
    /// The ACL user: `AUTH user password` on connecting. Default nil: `AUTH password` (the `default` user).
    public var username: String?
    /// Sent with `AUTH` on connecting. Default nil: no `AUTH`.
    public var password: String?
    /// Whether the connection is TLS (`rediss://`). Default false.
    public var usesTLS: Bool
    /// Whether the server is a node of a Redis Cluster, from which the cluster's map is read
    /// (``RedisClusterClient``). Default false.
    public var isCluster: Bool

    public init(host: String, port: Int = 6379, database: Int = 0, username: String? = nil, password: String? = nil,
                usesTLS: Bool = false, isCluster: Bool = false) {
        self.host = host
        self.port = port
        self.database = database
        self.username = username
        self.password = password
        self.usesTLS = usesTLS
        self.isCluster = isCluster
    }

    /// Parses one server's `redis://`, `rediss://`, `redis-cluster://` or `rediss-cluster://` URL; user and
    /// password are percent-decoded (`%40` for `@`). Nil when it is not of that form, names several hosts, or gives
    /// a user without a password.
    public init?(url: String) {
        guard let endpoints = Self.endpoints(url: url), endpoints.count == 1 else { return nil }
        self = endpoints[0]
    }

    /// Every server a URL names: one, or for a cluster several seeds sharing the credentials
    /// (`redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT…]`). Nil when it is not of that form.
    public static func endpoints(url: String) -> [RedisEndpoint]? {
        let schemes = [("redis://", false, false), ("rediss://", true, false),
                       ("redis-cluster://", false, true), ("rediss-cluster://", true, true)]
        guard let (scheme, usesTLS, isCluster) = schemes.first(where: { url.hasPrefix($0.0) }) else { return nil }
        var rest = Substring(url.dropFirst(scheme.count))
        var username: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            guard let credentials = credentials(rest[..<at]) else { return nil }
            (username, password) = credentials
            rest = rest[rest.index(after: at)...]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let text = rest[rest.index(after: slash)...]
            if !text.isEmpty {
                guard let value = Int(text), (0...15_999).contains(value), !isCluster || value == 0 else { return nil }
                database = value
            }
            rest = rest[..<slash]
        }
        let hosts = rest.split(separator: ",", omittingEmptySubsequences: false)
        guard isCluster || hosts.count == 1 else { return nil }
        var endpoints: [RedisEndpoint] = []
        for text in hosts {
            guard let (host, port) = hostAndPort(text) else { return nil }
            endpoints.append(RedisEndpoint(host: host, port: port ?? 6379, database: database, username: username,
                                           password: password, usesTLS: usesTLS, isCluster: isCluster))
        }
        return endpoints
    }

    /// `HOST[:PORT]` (`[::1]:7000` for IPv6); nil when the host is empty or the port is not 1…65535.
    static func hostAndPort(_ text: Substring) -> (host: String, port: Int?)? {
        var rest = text, port: Int?
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let value = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(value) else { return nil }
            port = value
            rest = rest[..<colon]
        }
        if rest.hasPrefix("["), rest.hasSuffix("]") { rest = rest.dropFirst().dropLast() }
        guard !rest.isEmpty else { return nil }
        return (String(rest), port)
    }

    /// `:PASSWORD` (the default user) or `USER:PASSWORD`, percent-decoded; an empty password is none. Nil for a
    /// user without a password (`USER@`: an old client's password or a user? Refused rather than guessed) or a
    /// bad percent escape.
    private static func credentials(_ text: Substring) -> (username: String?, password: String?)? {
        guard let colon = text.firstIndex(of: ":"),
              let user = String(text[..<colon]).removingPercentEncoding,
              let password = String(text[text.index(after: colon)...]).removingPercentEncoding else { return nil }
        guard !user.isEmpty else { return (nil, password.isEmpty ? nil : password) }
        guard !password.isEmpty else { return nil }
        return (user, password)
    }

    /// Whether ``host`` is an IPv4 or IPv6 literal (no SNI is sent for one; the certificate must name the address).
    var hostIsAddress: Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The server's name on the consistent-hash ring: the form it always had (plain text, IPv6 unbracketed), so
    /// moving a server to TLS keeps its keys where they are.
    var ringName: String { "redis://\(host):\(port)/\(database)" }

    var hostAndPortText: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `redis://HOST:PORT/DB`, `rediss://…`, `redis-cluster://HOST:PORT` or `rediss-cluster://…`: no user, no
    /// password.
    public var description: String {
        let scheme = usesTLS ? "rediss" : "redis"
        return isCluster ? "\(scheme)-cluster://\(hostAndPortText)" : "\(scheme)://\(hostAndPortText)/\(database)"
    }
}
