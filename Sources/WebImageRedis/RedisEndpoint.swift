import Foundation
import NIOCore

/// Where a Redis server is and how to log in: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://…` for
/// TLS (with ``RedisClient/Configuration/tls``'s trust and client certificate).
///
/// The password is never part of ``description`` nor of any error or log line the client makes.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    /// Default 6379.
    public var port: Int
    /// The database `SELECT`ed on connecting. Default 0.
    public var database: Int
    /// The ACL user: `AUTH user password` on connecting. Default nil: `AUTH password` (the `default` user).
    public var username: String?
    /// Sent with `AUTH` on connecting. Default nil: no `AUTH`.
    public var password: String?
    /// Whether the connection is TLS (`rediss://`). Default false.
    public var usesTLS: Bool

    public init(host: String, port: Int = 6379, database: Int = 0, username: String? = nil, password: String? = nil,
                usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.database = database
        self.username = username
        self.password = password
        self.usesTLS = usesTLS
    }

    /// Parses `redis://` and `rediss://` URLs; user and password are percent-decoded (`%40` for `@`). Nil when
    /// it is not of that form, or gives a user without a password.
    public init?(url: String) {
        let usesTLS: Bool
        var rest: Substring
        if url.hasPrefix("rediss://") {
            (usesTLS, rest) = (true, Substring(url.dropFirst("rediss://".count)))
        } else if url.hasPrefix("redis://") {
            (usesTLS, rest) = (false, Substring(url.dropFirst("redis://".count)))
        } else {
            return nil
        }
        var username: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            guard let credentials = Self.credentials(rest[..<at]) else { return nil }
            (username, password) = credentials
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
        guard let (host, port) = Self.hostAndPort(rest) else { return nil }
        self.init(host: host, port: port ?? 6379, database: database, username: username, password: password,
                  usesTLS: usesTLS)
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

    /// `redis://HOST:PORT/DB` or `rediss://…`: no user, no password.
    public var description: String { "\(usesTLS ? "rediss" : "redis")://\(hostAndPortText)/\(database)" }
}
