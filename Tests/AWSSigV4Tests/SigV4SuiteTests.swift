import Foundation
import Testing
import TestSupport
@testable import AWSSigV4

/// AWS's Signature Version 4 test suite (from awslabs/aws-c-auth, `Tests/Corpus/sigv4`): for every request, the
/// canonical request, the string to sign, the signature and the `Authorization` header match byte for byte.
@Suite struct SigV4SuiteTests {
    struct Case: CustomStringConvertible {
        var name: String
        var signer: SigV4Signer
        var request: SignableRequest
        var date: Double
        var description: String { name }
    }

    static let names: [String] = {
        let folder = TestCorpus.url("sigv4")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { !$0.contains(".") }.sorted()
    }()

    static func text(_ name: String, _ file: String) throws -> String {
        try String(contentsOf: TestCorpus.url("sigv4/\(name)/\(file)"), encoding: .utf8)
    }

    /// The suite's `request.txt` (`METHOD PATH HTTP/1.1`, headers with folded lines, a blank line, the body)
    /// and `context.json`, as a signer and a request. Paths and queries are written as text, some of it
    /// percent-encoded: decoded here, since the signer takes text.
    static func load(_ name: String) throws -> Case {
        let context = try #require(try JSONSerialization.jsonObject(with: Data(try text(name, "context.json").utf8)) as? [String: Any])
        let credentials = try #require(context["credentials"] as? [String: String])
        var signer = SigV4Signer(credentials: .init(accessKeyID: try #require(credentials["access_key_id"]),
                                                    secretAccessKey: try #require(credentials["secret_access_key"]),
                                                    sessionToken: credentials["token"]),
                                 region: try #require(context["region"] as? String),
                                 service: try #require(context["service"] as? String))
        signer.normalizesPath = context["normalize"] as? Bool ?? false
        signer.addsTokenAfterSigning = context["omit_session_token"] as? Bool ?? false
        let raw = try text(name, "request.txt")
        let (head, body) = raw.range(of: "\n\n").map { (String(raw[..<$0.lowerBound]), String(raw[$0.upperBound...])) } ?? (raw, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        let method = String(requestLine.prefix { $0 != " " })
        let target = String(requestLine.dropFirst(method.count + 1).dropLast(" HTTP/1.1".count))
        let (path, queryText) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        let query = queryText.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            return (name: parts[0].removingPercentEncoding ?? parts[0], value: parts.count > 1 ? parts[1].removingPercentEncoding ?? parts[1] : "")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            if line.first == " " || line.first == "\t", let last = headers.popLast() {
                headers.append((last.name, last.value + "\n" + line))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let bodyHash = SigV4Signer.payloadHash(of: Data(body.utf8))
        if context["sign_body"] as? Bool == true { headers.append(("X-Amz-Content-Sha256", bodyHash)) }
        let timestamp = try #require(context["timestamp"] as? String)
        let date = try Date.ISO8601FormatStyle().parse(timestamp).timeIntervalSince1970
        return Case(name: name, signer: signer,
                    request: SignableRequest(method: method, path: path.removingPercentEncoding ?? path, query: query,
                                             headers: headers, payloadHash: bodyHash),
                    date: date)
    }

    @Test func theSuiteIsThere() {
        #expect(Self.names.count == 38)
    }

    @Test(arguments: names)
    func eachStepMatches(_ name: String) throws {
        let test = try Self.load(name)
        let parts = test.signer.signature(for: test.request, at: test.date)
        #expect(parts.canonicalRequest == (try Self.text(name, "header-canonical-request.txt")))
        #expect(parts.stringToSign == (try Self.text(name, "header-string-to-sign.txt")))
        #expect(parts.signature == (try Self.text(name, "header-signature.txt")))
        let authorization = test.signer.authenticationHeaders(for: test.request, at: test.date)
            .first { $0.name == "Authorization" }?.value
        let signed = try Self.text(name, "header-signed-request.txt")
        #expect(signed.contains("\nAuthorization:\(authorization ?? "none")\n"))
    }
}
