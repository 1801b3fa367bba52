import Foundation
import TestSupport

/// URL strings built from parts that have broken HTTP clients: ports out of range or too long for an integer,
/// IPv4 in every inet_aton spelling, IPv6 literals with zones and embedded IPv4, user information,
/// percent-escapes (encoded controls and delimiters), bad brackets and very long parts. Every host is loopback,
/// `localhost` or not a host at all, so nothing could be sent off this machine even by a wrong check.
struct URLGenerator {
    private var random: SplitMix64
    let originPort: Int

    init(seed: UInt64, originPort: Int) {
        random = SplitMix64(seed: seed)
        self.originPort = originPort
    }

    /// A 1×1 PNG, what the origin serves.
    static let png = LargeImages.png(width: 1, height: 1, alpha: true)

    private static let schemes = ["http", "https", "HTTP", "hTtPs", "ftp", "file", "gopher", ""]
    private static let hosts = [
        "127.0.0.1", "127.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.0.0.1.", "localhost", "LOCALHOST",
        "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::1%25lo]", "[::1%lo]", "[::1%25]",
        "[fe80::1%25lo]", "[::127.0.0.1]", "[zz]", "[]", "[::1", "::1]", "[::1]]", "[:::1]", "[1::2::3]",
        "[0000:0000:0000:0000:0000:0000:0000:0000:0001]", "%31%32%37.0.0.1", "127.0.0.1%00", "127.0.0.1%0d%0a",
        "local%20host", "loc%zzalhost", "exa mple", "a\u{0}b", "\u{2603}", "xn--n3h", "", "@", "127.0.0.1@127.0.0.1",
    ]
    private static let ports = [
        "", ":", ":0", ":1", ":80", ":443", ":65535", ":65536", ":99999", ":4294967297", ":9223372036854775807",
        ":9223372036854775808", ":99999999999999999999999", ":-1", ":+80", ": 80", ":0x50", ":080", ":00080",
        ":1e3", ":80:80", ":%38%30",
    ]
    private static let userinfos = ["", "user@", "user:pass@", ":@", "a%40b@", "@@", "u:p:q@"]
    private static let paths = [
        "", "/", "/img.png", "/redirect", "/a%0Ab", "/%00", "/a b", "/../../etc/passwd", "/a?b=c#d", "/%ZZ",
        "/\u{1F600}", "//double", "?", "#",
    ]

    mutating func next() -> String {
        var host = Self.hosts[pick(Self.hosts.count)]
        var port = Self.ports[pick(Self.ports.count)]
        if pick(4) == 0 { port = ":\(originPort)" }
        var path = Self.paths[pick(Self.paths.count)]
        if pick(10) == 0 { path += "/" + String(repeating: "a", count: 1 + pick(70_000)) }
        if pick(20) == 0 { host = String(repeating: "a", count: 200 + pick(400)) + ".localhost" }
        let scheme = Self.schemes[pick(Self.schemes.count)]
        let separator = pick(10) == 0 ? ":/" : "://"
        return scheme + separator + Self.userinfos[pick(Self.userinfos.count)] + host + port + path
    }

    private mutating func pick(_ count: Int) -> Int {
        Int(random.next() % UInt64(count))
    }
}
