#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix

/// Turns a host name into the addresses a connection to it could reach, so each one can be checked before
/// connecting.
public protocol HostResolving: Sendable {
    /// Every address `host` resolves to; throws ``ProxyError/badGateway(_:)`` when it resolves to none.
    func addresses(of host: String) async throws(ProxyError) -> [IPAddress]
}

/// The system resolver (`getaddrinfo`, so `/etc/hosts` and the configured DNS servers), run on NIO's
/// blocking-I/O thread pool: it blocks, and must not hold a thread of the cooperative pool.
public struct SystemHostResolver: HostResolving {
    public init() {}

    public func addresses(of host: String) async throws(ProxyError) -> [IPAddress] {
        let result: [IPAddress]?
        do {
            result = try await NIOThreadPool.singleton.runIfActive { Self.resolve(host) }
        } catch {
            throw .notFound("the source is unreachable: cannot resolve \(host): \(error)")
        }
        guard let result, !result.isEmpty else { throw .notFound("the source is unreachable: cannot resolve \(host)") }
        return result
    }

    static func resolve(_ host: String) -> [IPAddress]? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = Self.address(current.pointee), !addresses.contains(address) { addresses.append(address) }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    private static func address(_ info: addrinfo) -> IPAddress? {
        guard let raw = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            let value = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            return .v4(UInt32(bigEndian: value))
        case AF_INET6:
            let bytes = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            return .v6(bytes)
        default:
            return nil
        }
    }
}
