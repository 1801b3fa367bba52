import Foundation
import WebImageCLISupport
import WebImageServer

extension ServeOptions {
    /// Which sources may be fetched: address classes (imgproxy's three switches and ours for all), prefixes,
    /// schemes, trusted hosts, local files, redirects and extra certificate authorities.
    static let sources: [ServeOption] = [
        .toggle("allow-private-sources", ["WEBIMAGE_ALLOW_PRIVATE_SOURCES"],
                "Allow sources on loopback, private, link-local and every other non-public address (CGNAT, "
                    + "multicast, reserved, …).",
                field: "configuration.sources.policy.allowsPrivateAddresses",
                \.configuration.sources.policy.allowsPrivateAddresses),
        .toggle("allow-loopback-sources",
                ["WEBIMAGE_ALLOW_LOOPBACK_SOURCES", "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES"],
                "Allow sources on loopback addresses (127.0.0.0/8, ::1).",
                field: "configuration.sources.policy.allowsLoopbackAddresses",
                \.configuration.sources.policy.allowsLoopbackAddresses),
        .toggle("allow-private-network-sources",
                ["WEBIMAGE_ALLOW_PRIVATE_NETWORK_SOURCES", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES"],
                "Allow sources on private-network addresses (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7).",
                field: "configuration.sources.policy.allowsPrivateNetworkAddresses",
                \.configuration.sources.policy.allowsPrivateNetworkAddresses),
        .toggle("allow-link-local-sources",
                ["WEBIMAGE_ALLOW_LINK_LOCAL_SOURCES", "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES"],
                "Allow sources on link-local addresses (169.254.0.0/16, fe80::/10).",
                field: "configuration.sources.policy.allowsLinkLocalAddresses",
                \.configuration.sources.policy.allowsLinkLocalAddresses),
        .list("allowed-source", ["WEBIMAGE_ALLOWED_SOURCES", "IMGPROXY_ALLOWED_SOURCES"],
              "Only fetch sources starting with this prefix (repeatable); * matches any characters but /.",
              valueName: "PREFIX", field: "configuration.sources.policy.allowedPrefixes",
              \.configuration.sources.policy.allowedPrefixes),
        ServeOption(name: "allowed-scheme", variables: ["WEBIMAGE_ALLOWED_SCHEMES"], kind: .list("SCHEME"),
                    help: "A scheme sources may use, http or https (repeatable). Default http and https.",
                    field: "configuration.sources.policy.allowedSchemes") { settings, given in
            for scheme in given.values where !["http", "https"].contains(scheme) {
                throw CLIFailure(subject: given.origin, reason: "bad value '\(scheme)': give http or https")
            }
            settings.configuration.sources.policy.allowedSchemes = Set(given.values)
        },
        ServeOption(name: "trusted-host", variables: ["WEBIMAGE_TRUSTED_HOSTS"], kind: .list("HOST"),
                    help: "A source host name whose addresses are not checked, e.g. an internal image store on a "
                        + "private network; redirects from it still are (repeatable). Default none.",
                    field: "configuration.sources.policy.trustedHosts") { settings, given in
            settings.configuration.sources.policy.trustedHosts = Set(given.values.map { $0.lowercased() })
        },
        ServeOption(name: "local-root", variables: ["WEBIMAGE_LOCAL_ROOT", "IMGPROXY_LOCAL_FILESYSTEM_ROOT"],
                    kind: .value("DIR"),
                    help: "Serve local:///PATH sources from regular files under this directory (never outside it, "
                        + "whatever links say). Default: none, local sources refused.",
                    field: "configuration.sources.localRoot") { settings, given in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: given.text, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw given.failure("give an existing directory")
            }
            settings.configuration.sources.localRoot = URL(fileURLWithPath: given.text, isDirectory: true)
        },
        .number("max-redirects", ["WEBIMAGE_MAX_REDIRECTS", "IMGPROXY_MAX_REDIRECTS"],
                "Redirects followed per source, each hop checked like the source.",
                field: "configuration.sources.maxRedirects", \.configuration.sources.maxRedirects, minimum: 0,
                maximum: 100),
        .list("source-ca", ["WEBIMAGE_SOURCE_CA"],
              "PEM file of a certificate authority trusted for https sources besides the system's (repeatable).",
              valueName: "FILE", field: "configuration.sources.additionalTrustRootFiles",
              \.configuration.sources.additionalTrustRootFiles) {
            FileManager.default.isReadableFile(atPath: $0) ? nil : "cannot read it"
        },
    ]
}
