import Foundation
import NIOCore
import NIOSSL

/// How a `rediss://` connection checks its server and, when the server asks, shows itself (swift-nio-ssl, on
/// BoringSSL): the server's certificate must chain to ``trustRoots`` and name the URL's host (its address for an
/// IP literal, for which no SNI is sent); ``certificateFile`` and ``privateKeyFile`` are the client certificate
/// a server with `tls-auth-clients yes` asks for.
///
/// Only paths are kept: the files are read when a client is made (``check()`` reads them now).
public struct RedisTLS: Sendable, Hashable {
    /// Which CA certificates a server's certificate may chain to.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store (Debian's `/etc/ssl/certs`): managed services' public CAs.
        case system
        /// The CA certificates in this PEM file, and only those: a private CA.
        case file(String)
    }

    /// Default ``TrustRoots/system``.
    public var trustRoots: TrustRoots
    /// The client certificate (PEM, the chain after it). Default nil: none.
    public var certificateFile: String?
    /// The client certificate's private key (PEM). Default nil: none.
    public var privateKeyFile: String?

    public init(trustRoots: TrustRoots = .system, certificateFile: String? = nil, privateKeyFile: String? = nil) {
        self.trustRoots = trustRoots
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
    }

    /// Why the TLS settings cannot be used: a file that cannot be read as PEM, or half a client identity.
    public struct SetupError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Reads the files, as a client would: a start-up check.
    public func check() throws(SetupError) {
        _ = try makeContext()
    }

    func makeContext() throws(SetupError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        switch trustRoots {
        case .system: configuration.trustRoots = .default
        case .file(let path): configuration.trustRoots = .certificates(try Self.certificates(path, what: "CA file"))
        }
        switch (certificateFile, privateKeyFile) {
        case (nil, nil): break
        case let (certificate?, key?):
            configuration.certificateChain = try Self.certificates(certificate, what: "client certificate").map {
                .certificate($0)
            }
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            } catch {
                throw SetupError(description: "cannot read the client key '\(key)' as a PEM private key")
            }
        case (_?, nil): throw SetupError(description: "a client certificate needs its private key")
        case (nil, _?): throw SetupError(description: "a client key needs its certificate")
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SetupError(description: "the TLS settings were refused: \(error)")
        }
    }

    private static func certificates(_ path: String, what: String) throws(SetupError) -> [NIOSSLCertificate] {
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw SetupError(description: "cannot read the \(what) '\(path)' as PEM certificates")
        }
        return certificates
    }
}

/// What went wrong on a TLS connection, said so that an operator knows what to fix.
enum RedisTLSFailure {
    static func describe(_ error: any Error) -> String {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return "TLS: the server's certificate does not name this host"
        }
        switch error {
        case RedisError.connectionFailed(let message): return message
        case NIOSSLError.handshakeFailed(let reason): return describe(boringSSL: "\(reason)", during: "TLS handshake failed")
        case let reason as BoringSSLError: return describe(boringSSL: "\(reason)", during: "TLS failed")
        case NIOSSLError.uncleanShutdown:
            return "TLS: the server closed the connection without a TLS close (does it accept this client's certificate?)"
        case let other as NIOSSLError: return "TLS: \(other)"
        default: return "\(error)"
        }
    }

    /// BoringSSL's error text, read for the causes operators meet.
    private static func describe(boringSSL text: String, during what: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "\(what): the server's certificate was refused (not signed by a trusted CA, expired or not yet valid)"
        }
        if ["WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG", "RECORD_TOO_LARGE"].contains(where: text.contains) {
            return "\(what): the server does not speak TLS (a plain-text port? give redis://)"
        }
        if text.contains("ALERT_") { return "\(what): the server refused this client (\(alert(text)))" }
        return "\(what): \(text)"
    }

    /// BoringSSL's alert name in an error text (`TLSV1_ALERT_CERTIFICATE_REQUIRED` → `certificate required`).
    private static func alert(_ text: String) -> String {
        guard let range = text.range(of: #"ALERT_[A-Z_]+"#, options: .regularExpression) else { return text }
        return text[range].dropFirst("ALERT_".count).replacingOccurrences(of: "_", with: " ").lowercased()
    }
}
