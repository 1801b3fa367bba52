import Foundation

/// The `Host` values the operator page answers. DNS rebinding lets a page of any site reach a private listener
/// under that site's own name (its name made to resolve to the listener's address), and then read the page or have
/// the builder sign; the browser still sends the site's name as `Host`. So a name must be one the operator gave
/// (`localhost`, the name the listener is bound to, ``OperatorPage/publicBaseURL``'s host), and an address literal
/// must be the listener's own (any, when it listens on every interface): a page reached by address has that
/// address as its origin, which no other site can take.
struct OperatorHosts: Sendable {
    /// Names admitted, lowercased.
    let names: Set<String>
    /// The listener's bound address, or nil when it is a name or every interface.
    let boundAddress: IPAddress?
    /// Whether the listener is bound to every interface (`0.0.0.0`, `::`, or no host).
    let listensEverywhere: Bool

    init(listenerHost: String, publicBaseURL: URL?) {
        let bound = IPAddress(host: listenerHost)
        listensEverywhere = listenerHost.isEmpty || bound == .v4(0) || bound == .v6(Array(repeating: 0, count: 16))
        boundAddress = listensEverywhere ? nil : bound
        names = Set(["localhost", bound == nil ? listenerHost.lowercased() : nil,
                     publicBaseURL?.host?.lowercased()].compactMap { $0 })
    }

    /// Whether a request whose `Host` is `authority` (`HOST[:PORT]`, `[V6][:PORT]`) is answered.
    func admits(_ authority: String?) -> Bool {
        guard let host = authority.map(Self.host(of:)), !host.isEmpty else { return false }
        if let address = IPAddress(host: host) { return listensEverywhere || address == boundAddress }
        return names.contains(host.hasSuffix(".") ? String(host.dropLast()) : host)
    }

    /// The host part of an authority, lowercased, without its port.
    static func host(of authority: String) -> String {
        let text = authority.lowercased()
        if text.hasPrefix("[") { return text.firstIndex(of: "]").map { String(text[...$0]) } ?? text }
        return String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
