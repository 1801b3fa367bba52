import Foundation

/// A source URL checked against the policy, with the one address the connection must go to.
///
/// Checking a host name's addresses and then letting the HTTP client resolve it again would leave a window
/// (DNS rebinding: the second answer may be private). So the transport connects to exactly the address
/// checked here: a plain-http URL is rewritten to that address with the original `Host` header, an https
/// one keeps its host for SNI and certificate checks while the client's DNS override sends it to the address.
struct PinnedTarget: Sendable {
    /// The URL as the source named it.
    let url: URL
    let host: String
    let address: IPAddress

    /// Checks `url` with `policy` (scheme, allowlist, literal address) and every address its host resolves to.
    static func check(_ url: URL, policy: SourcePolicy, resolver: any HostResolving) async throws(ProxyError)
        -> PinnedTarget {
        _ = try policy.check(url.absoluteString)
        guard let host = url.host, !host.isEmpty else { throw .badRequest("the source URL has no host") }
        if let literal = IPAddress(host: host) {
            return PinnedTarget(url: url, host: host, address: literal)
        }
        let addresses = try await resolver.addresses(of: host)
        for address in addresses { try policy.check(address: address, host: host) }
        return PinnedTarget(url: url, host: host, address: addresses[0])
    }

    var isHTTPS: Bool { url.scheme?.lowercased() == "https" }

    /// The address as a URL host (`[…]` around IPv6).
    var addressHost: String {
        switch address {
        case .v4: address.description
        case .v6: "[\(address.description)]"
        }
    }

    /// The `Host` header the source expects (the port only when it is not the scheme's default).
    var hostHeader: String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != (isHTTPS ? 443 : 80) else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// For plain http: the URL with its host replaced by the checked address.
    var addressURL: URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedHost = addressHost
        return components.url
    }
}
