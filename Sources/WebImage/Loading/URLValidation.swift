import WebImageCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one check every http(s) URL passes before it reaches AsyncHTTPClient or SwiftNIO.
///
/// Those libraries trap, not throw, on some URLs Foundation accepts: a port above 65535 on an IP literal
/// (`SocketAddress(ipAddress:port:)`) takes the whole process down. Foundation also reads a port too long for
/// `Int` as no port at all, which would connect to the scheme's default port instead. So the authority is read
/// here from the URL's own text: the host must be a DNS-style name, an IPv4 address or a bracketed IPv6
/// literal (with an optional `%25` zone identifier), and the port, when given, a number in 1…65535. The
/// downloader, the transport (each redirect hop too), the manager, the prefetcher, the command-line tool and
/// the image service's source policy all ask here.
public enum URLValidation {
    /// The longest host accepted, in bytes (a DNS name has at most 253 characters).
    static let maxHostLength = 253

    /// Why `url` cannot be loaded over http(s), or nil when it can (or is not an http(s) URL).
    public static func problem(with url: URL) -> String? {
        let absolute = url.absoluteURL
        guard let scheme = absolute.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        guard let authority = authority(of: absolute.absoluteString) else { return "it has no host" }
        let (host, port) = split(authority)
        if let problem = hostProblem(host) { return problem }
        if let port, let problem = portProblem(port, parsed: absolute.port) { return problem }
        return nil
    }

    /// Throws ``WebImageError/invalidURL(_:)`` (1000) naming what is wrong when `url` cannot be loaded over http(s).
    public static func validate(_ url: URL) throws(WebImageError) {
        if let problem = problem(with: url) { throw invalid(url, problem) }
    }

    /// 1000 invalidURL for a redirect to `url` that no client can connect to, or nil when it can be tried.
    public static func redirectTargetError(_ url: URL) -> WebImageError? {
        problem(with: url).map { invalid(url, "a redirect target: \($0)") }
    }

    /// 1000 invalidURL for `url`, naming its problem.
    public static func invalid(_ url: URL, _ problem: String) -> WebImageError {
        .invalidURL("\(url.absoluteString) (\(problem))")
    }

    /// The text between `scheme://` and the path, query or fragment, without the user information.
    private static func authority(of text: String) -> Substring? {
        guard let start = text.range(of: "://")?.upperBound else { return nil }
        let rest = text[start...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return authority.isEmpty ? nil : authority
    }

    /// Host and port text; the port is nil when there is no `:` after the host, empty for a bare `:`.
    private static func split(_ authority: Substring) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = authority[...close], rest = authority[authority.index(after: close)...]
            return (host, rest.isEmpty ? nil : rest)
        }
        guard let colon = authority.firstIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[colon...])
    }

    private static func hostProblem(_ host: Substring) -> String? {
        if host.isEmpty { return "it has no host" }
        if host.utf8.count > maxHostLength { return "its host is longer than \(maxHostLength) bytes" }
        if host.hasPrefix("[") { return ipv6Problem(host) }
        let decoded = host.removingPercentEncoding ?? ""
        if decoded.isEmpty { return "its host '\(host)' has a bad percent-escape" }
        let allowed = decoded.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x7F ? !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control
                : scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar)
        }
        return allowed ? nil : "its host '\(host)' has a character no host name may have"
    }

    /// A bracketed literal: an IPv6 address, then an optional `%25` zone of unreserved characters.
    private static func ipv6Problem(_ host: Substring) -> String? {
        guard host.hasSuffix("]"), host.count > 2 else { return "its host '\(host)' is not a bracketed IPv6 address" }
        let inner = host.dropFirst().dropLast()
        var address = inner
        if let percent = inner.firstIndex(of: "%") {
            address = inner[..<percent]
            let zone = inner[percent...].dropFirst(inner[percent...].hasPrefix("%25") ? 3 : 1)
            let unreserved = zone.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._~".unicodeScalars.contains($0))
            }
            guard !zone.isEmpty, unreserved else { return "its host '\(host)' has a bad IPv6 zone identifier" }
        }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, String(address), &bytes) == 1 else {
            return "its host '\(host)' is not a valid IPv6 address"
        }
        return nil
    }

    /// `:` then 1…65535 in at most five decimal digits, the number Foundation read too (the clients connect to
    /// `URL.port`); a bare `:` means the scheme's default port (RFC 3986 §3.2.3).
    private static func portProblem(_ port: Substring, parsed: Int?) -> String? {
        guard port.hasPrefix(":") else { return "it has text '\(port)' after its host" }
        let digits = port.dropFirst()
        if digits.isEmpty { return nil }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "its port '\(digits)' is not a number" }
        guard digits.count <= 5, let value = Int(digits), (1...65535).contains(value), parsed == value else {
            return "its port \(digits) is outside 1…65535"
        }
        return nil
    }
}
