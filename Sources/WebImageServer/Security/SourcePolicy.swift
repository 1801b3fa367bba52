import Foundation
import WebImage

/// Which source URLs the service may fetch: schemes, an optional allowlist of prefixes, and SSRF
/// protection against every address that is not public.
///
/// ``check(_:)`` judges the URL and a literal IP host; ``check(address:host:)`` is for each address a
/// connection is actually made to (a host name's resolved address, every redirect hop).
public struct SourcePolicy: Sendable, Hashable {
    /// Schemes a source may use. Default `http` and `https`: never files or other schemes.
    public var allowedSchemes: Set<String>
    /// When not empty, a source must start with one of these; `*` matches any run of characters but `/`, as in
    /// imgproxy's `IMGPROXY_ALLOWED_SOURCES` (`https://*.example.com/`: end a host with `/`). Default empty: any
    /// source.
    public var allowedPrefixes: [String]
    /// Allow loopback, private, link-local, CGNAT, unique-local, multicast, unspecified and every other
    /// special-purpose address (``AddressClass``; `--allow-private-sources`, for tests and local development).
    /// Default false.
    public var allowsPrivateAddresses: Bool
    /// Allow loopback addresses, 127/8 and `::1` (imgproxy's `IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES`).
    /// Default false.
    public var allowsLoopbackAddresses: Bool
    /// Allow private-network addresses, 10/8, 172.16/12, 192.168/16 and unique-local `fc00::/7` (imgproxy's
    /// `IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES`, which imgproxy allows by default). Default false.
    public var allowsPrivateNetworkAddresses: Bool
    /// Allow link-local addresses, 169.254/16 and `fe80::/10` (imgproxy's
    /// `IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES`). Default false.
    public var allowsLinkLocalAddresses: Bool
    /// Host names whose addresses are not checked: an internal image store on a private network, trusted
    /// while every other private address stays refused (redirects from it are still checked hop by hop).
    /// Default none.
    public var trustedHosts: Set<String>

    public init(allowedSchemes: Set<String> = ["http", "https"], allowedPrefixes: [String] = [],
                allowsPrivateAddresses: Bool = false, allowsLoopbackAddresses: Bool = false,
                allowsPrivateNetworkAddresses: Bool = false, allowsLinkLocalAddresses: Bool = false,
                trustedHosts: Set<String> = []) {
        self.allowedSchemes = allowedSchemes
        self.allowedPrefixes = allowedPrefixes
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.allowsLoopbackAddresses = allowsLoopbackAddresses
        self.allowsPrivateNetworkAddresses = allowsPrivateNetworkAddresses
        self.allowsLinkLocalAddresses = allowsLinkLocalAddresses
        self.trustedHosts = Set(trustedHosts.map { $0.lowercased() })
    }

    /// The source as a URL when the policy allows it; throws ``ProxyError/badRequest(_:)`` for a string that is
    /// not an absolute URL with a host, ``ProxyError/sourceNotAllowed(_:)`` otherwise.
    public func check(_ source: String) throws(ProxyError) -> URL {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased() else {
            throw .badRequest("the source '\(source)' is not an absolute URL with a host")
        }
        guard allowedSchemes.contains(scheme) else {
            throw .sourceNotAllowed("scheme '\(scheme)' (allowed: \(allowedSchemes.sorted().joined(separator: ", ")))")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .badRequest("the source '\(source)' is not an absolute URL with a host")
        }
        if let problem = URLValidation.problem(with: url) {
            throw .badRequest("the source '\(source)' is not a valid URL: \(problem)")
        }
        try checkPrefix(source)
        if let address = IPAddress(host: host) { try check(address: address, host: host) }
        return url
    }

    /// Throws ``ProxyError/sourceNotAllowed(_:)`` when there is an allowlist and `source`, as written, starts with
    /// none of its prefixes (every kind of source: http(s), `local://`, `s3://`).
    func checkPrefix(_ source: String) throws(ProxyError) {
        guard !allowedPrefixes.isEmpty,
              !allowedPrefixes.contains(where: { Self.starts(source.utf8[...], with: $0.utf8[...]) }) else { return }
        throw .sourceNotAllowed("\(source) matches no allowed source prefix")
    }

    /// Whether `text` starts with `pattern`, each `*` of which stands for any run of characters but `/`.
    static func starts(_ text: Substring.UTF8View, with pattern: Substring.UTF8View) -> Bool {
        guard let star = pattern.firstIndex(of: UInt8(ascii: "*")) else { return text.starts(with: pattern) }
        let literal = pattern[..<star], rest = pattern[pattern.index(after: star)...]
        guard text.starts(with: literal) else { return false }
        var tail = text.dropFirst(literal.count)
        while true {
            if starts(tail, with: rest) { return true }
            guard let first = tail.first, first != UInt8(ascii: "/") else { return false }
            tail = tail.dropFirst()
        }
    }

    /// Throws ``ProxyError/sourceNotAllowed(_:)`` when `address` (of `host`) is of a class the policy does not
    /// allow; the message names the switch that allows it.
    public func check(address: IPAddress, host: String) throws(ProxyError) {
        let addressClass = address.addressClass
        guard !allows(addressClass), !trustedHosts.contains(host.lowercased()) else { return }
        // Name the embedded address that decided, so `[2002:7f00:1::]` reads as the loopback it is.
        let carried = address.embeddedIPv4.first { $0.address.addressClass != .public }
            .map { " (\($0.form.rawValue) of \($0.address))" } ?? ""
        throw .sourceNotAllowed("\(host) is \(address)\(carried), a \(addressClass.rawValue) address; "
            + "start the server with \(Self.switchAllowing(addressClass)) to allow such sources")
    }

    /// Whether sources at addresses of `addressClass` may be fetched. The three classes imgproxy has a switch for
    /// each have one; every other special-purpose class (CGNAT, multicast, reserved, …), which imgproxy allows,
    /// only with ``allowsPrivateAddresses``.
    public func allows(_ addressClass: AddressClass) -> Bool {
        if addressClass == .public || allowsPrivateAddresses { return true }
        switch addressClass {
        case .loopback: return allowsLoopbackAddresses
        case .privateNetwork, .uniqueLocal: return allowsPrivateNetworkAddresses
        case .linkLocal: return allowsLinkLocalAddresses
        default: return false
        }
    }

    /// The narrowest `webimage serve` switch that allows `addressClass`.
    private static func switchAllowing(_ addressClass: AddressClass) -> String {
        switch addressClass {
        case .loopback: "--allow-loopback-sources"
        case .privateNetwork, .uniqueLocal: "--allow-private-network-sources"
        case .linkLocal: "--allow-link-local-sources"
        default: "--allow-private-sources"
        }
    }
}
