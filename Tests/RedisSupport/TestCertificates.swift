import Foundation
import TestSupport

/// Certificates for TLS tests, made once per test process with `openssl` (Debian's 3.0) in a temporary directory:
/// a CA; a server certificate for `localhost` and 127.0.0.1; the same names expired (valid for one day in 2020:
/// `openssl ca -startdate/-enddate`, as `openssl x509` cannot date one in the past); one for `redis.example` only
/// (a name mismatch); a client certificate; and a second CA that signed none of them. EC P-256 keys: quick to make.
public struct TestCertificates: Sendable {
    public let directory: URL
    /// PEM files.
    public var caFile: String { path("ca.crt") }
    public var otherCAFile: String { path("other-ca.crt") }
    public var serverCertificate: String { path("server.crt") }
    public var serverKey: String { path("server.key") }
    public var expiredCertificate: String { path("expired.crt") }
    public var expiredKey: String { path("expired.key") }
    public var otherNameCertificate: String { path("other-name.crt") }
    public var otherNameKey: String { path("other-name.key") }
    public var clientCertificate: String { path("client.crt") }
    public var clientKey: String { path("client.key") }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The process's certificates, made on first use.
    public static func shared() async throws -> TestCertificates {
        try await made.value
    }

    private static let made = Task { try await make() }

    private static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-tls-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("issued"),
                                                withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        try await certificates.write()
        return certificates
    }

    private static let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    private static let names = "subjectAltName=DNS:localhost,IP:127.0.0.1"

    private func write() async throws {
        for ca in ["ca", "other-ca"] {
            try await openssl(["req", "-x509"] + Self.key + ["-keyout", "\(ca).key", "-out", "\(ca).crt", "-days", "30",
                              "-subj", "/CN=WebImage test \(ca)", "-addext", "basicConstraints=critical,CA:TRUE",
                              "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        }
        // clientAuth too: a cluster node shows its certificate to the others on the bus.
        try "\(Self.names)\nextendedKeyUsage=serverAuth,clientAuth\n".write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: path("client.ext"), atomically: true, encoding: .utf8)
        try "subjectAltName=DNS:redis.example\n".write(toFile: path("other-name.ext"), atomically: true, encoding: .utf8)
        for (name, subject) in [("server", "/CN=localhost"), ("client", "/CN=webimage-client"),
                                ("other-name", "/CN=redis.example")] {
            try await openssl(["req"] + Self.key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
            try await openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                               "-CAcreateserial", "-out", "\(name).crt", "-days", "30", "-extfile", "\(name).ext"])
        }
        try """
            [ca]
            default_ca = test
            [test]
            database = issued/index.txt
            serial = issued/serial
            new_certs_dir = issued
            certificate = ca.crt
            private_key = ca.key
            default_md = sha256
            policy = any
            copy_extensions = copy
            unique_subject = no
            [any]
            commonName = supplied

            """.write(toFile: path("ca.cnf"), atomically: true, encoding: .utf8)
        try "".write(toFile: path("issued/index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(toFile: path("issued/serial"), atomically: true, encoding: .utf8)
        try await openssl(["req"] + Self.key + ["-keyout", "expired.key", "-out", "expired.csr", "-subj", "/CN=localhost",
                          "-addext", Self.names])
        try await openssl(["ca", "-batch", "-config", "ca.cnf", "-in", "expired.csr", "-out", "expired.crt",
                           "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-notext"])
    }

    private func openssl(_ arguments: [String]) async throws {
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments, in: directory,
                                             timeout: 60)
        guard run.exitedNormally, run.status == 0 else {
            throw OpenSSLFailure(description: "openssl \(arguments.joined(separator: " ")): \(run.stderr)")
        }
    }

    struct OpenSSLFailure: Error, CustomStringConvertible {
        let description: String
    }
}
