import Foundation
import TestSupport

/// A certificate authority and a server certificate signed by it for a few DNS names, made with the
/// `openssl` command (Debian's `openssl` package; the package depends on neither swift-certificates nor a
/// certificate builder) in a temporary directory, valid for two days.
struct TestCertificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    var keyFile: String { directory.appendingPathComponent("server.key").path }

    /// Thrown when an `openssl` step fails, with its command line and what it printed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func make(dnsNames: [String]) throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SwiftWebImageTLS-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        let extensions = directory.appendingPathComponent("server.ext")
        try Data(("subjectAltName=" + dnsNames.map { "DNS:" + $0 }.joined(separator: ",")
                  + "\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n").utf8)
            .write(to: extensions)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                     "-subj", "/CN=SwiftWebImage test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: directory)
        try openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=\(dnsNames[0])"],
                    in: directory)
        try openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                     "-out", "server.pem", "-days", "2", "-extfile", "server.ext"], in: directory)
        return certificates
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func openssl(_ arguments: [String], in directory: URL) throws {
        let printed = directory.appendingPathComponent("openssl-stderr")
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/openssl"), arguments, directory: directory,
                                         stderr: .file(printed))
        process.waitUntilExit()
        guard process.termination == .exited(0) else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): "
                          + ((try? String(contentsOf: printed, encoding: .utf8)) ?? ""))
        }
    }
}
