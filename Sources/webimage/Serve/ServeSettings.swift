import Foundation
import Logging
import WebImage
import WebImageServer

/// `webimage serve`'s flags and their `WEBIMAGE_*` environment variables (a flag wins), checked and turned into
/// an ``ImageProxyConfiguration``; a bad value fails with one line naming the flag.
struct ServeSettings {
    var host: String
    var port: Int
    var configuration: ImageProxyConfiguration
    var drainTimeout: Duration
    /// Where Prometheus metrics are served (`--metrics-bind`); nil: no metrics listener.
    var metrics: (host: String, port: Int)?
    /// What is logged on stderr (`--log-level`), the access log apart. Default warning.
    var logLevel: Logger.Level = .warning
    /// One `info` line per request on stderr (`--access-log`, `--no-access-log`). Default on.
    var accessLog = true

    /// Reads a value given as a flag or, without one, from `environment[variable]`.
    struct Source {
        let environment: [String: String]

        func text(_ flag: String?, _ variable: String) -> String? {
            flag ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }

        /// Repeated flags, else the variable's comma-separated list.
        func list(_ flags: [String], _ variable: String) -> [String] {
            if !flags.isEmpty { return flags }
            return text(nil, variable)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        }

        func flag(_ set: Bool, _ variable: String) -> Bool {
            set || ["1", "true", "yes"].contains(environment[variable]?.lowercased() ?? "")
        }
    }

    /// Parses `HOST:PORT` (`[::1]:8080` for IPv6).
    static func address(_ text: String, option: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else {
            throw CLIFailure(subject: option, reason: "bad value '\(text)': give HOST:PORT (e.g. 127.0.0.1:8080)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw CLIFailure(subject: option, reason: "bad value '\(text)': give HOST:PORT (e.g. 127.0.0.1:8080)")
        }
        return (host, port)
    }

    static func positive(_ text: String?, option: String, default value: Int, allowZero: Bool = false,
                         maximum: Int = maxSetting) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), number > 0 || (allowZero && number == 0) else {
            throw CLIFailure(subject: option,
                             reason: "bad value '\(text)': give a \(allowZero ? "" : "positive ")whole number")
        }
        guard number <= maximum else {
            throw CLIFailure(subject: option, reason: "bad value '\(text)': give at most \(maximum)")
        }
        return number
    }

    /// The largest number a setting takes: seconds, milliseconds and bytes below it convert to every clock and
    /// integer type the libraries take (NIO's `TimeAmount` traps past Int64 nanoseconds) without overflow.
    static let maxSetting = 1_000_000_000
    /// The largest byte count a setting takes (1 TiB).
    static let maxBytes = 1 << 40

    /// `paths` when every one is a readable file (checked now, not at the first https source).
    static func readableFiles(_ paths: [String], option: String) throws -> [String] {
        for path in paths where !FileManager.default.isReadableFile(atPath: path) {
            throw CLIFailure(subject: option, reason: "cannot read '\(path)'")
        }
        return paths
    }

    /// Key/salt pairs in the order given; every key needs its salt.
    static func keyPairs(keys: [String], salts: [String]) throws -> [URLSigner.KeyPair] {
        guard keys.count == salts.count else {
            throw CLIFailure(subject: "--key", reason: "\(keys.count) keys but \(salts.count) salts: give one --salt per --key")
        }
        return try zip(keys, salts).map { key, salt in
            guard let pair = URLSigner.KeyPair(keyHex: key, saltHex: salt) else {
                throw CLIFailure(subject: "--key", reason: "bad key/salt '\(key)'/'\(salt)': give non-empty even-length hex")
            }
            return pair
        }
    }
}
