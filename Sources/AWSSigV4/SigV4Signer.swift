import Crypto
import Foundation

/// AWS Signature Version 4 with headers (`Authorization`), as S3 and S3-compatible stores (MinIO, Ceph RGW, R2)
/// check it: the canonical request, the string to sign, the derived signing key, the signature. Checked
/// against AWS's published test suite (`Tests/Corpus/sigv4`).
public struct SigV4Signer: RequestSigning {
    public struct Credentials: Sendable, Hashable {
        public var accessKeyID: String
        public var secretAccessKey: String
        /// A temporary credential's token, sent as `X-Amz-Security-Token`. Default nil.
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    public var credentials: Credentials
    public var region: String
    /// `s3` for S3 and the stores that speak its API.
    public var service: String
    /// Remove `.` and `..` segments and repeated slashes from the path before signing, as every AWS service but
    /// S3 does. Default false (S3: the key is signed as it is).
    public var normalizesPath = false
    /// Sign without the session token and add it afterwards, for services that want it so. Default false.
    public var addsTokenAfterSigning = false

    /// SHA-256 of nothing, the payload hash of a request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The lowercase hex SHA-256 of a body, its ``SignableRequest/payloadHash``.
    public static func payloadHash(of body: Data) -> String { hex(SHA256.hash(data: body)) }

    public init(credentials: Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// `X-Amz-Date`, the session token when there is one, and `Authorization`, for a request sent at `date`
    /// (seconds since 1970).
    public func authenticationHeaders(for request: SignableRequest, at date: Double) -> [(name: String, value: String)] {
        let parts = signature(for: request, at: date)
        var headers = parts.addedHeaders
        if addsTokenAfterSigning, let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(parts.scope), "
            + "SignedHeaders=\(parts.signedHeaders), Signature=\(parts.signature)"
        return headers + [("Authorization", authorization)]
    }

    /// Every intermediate of the signature, for tests against the published suite.
    struct Parts {
        var addedHeaders: [(name: String, value: String)]
        var canonicalRequest: String
        var signedHeaders: String
        var scope: String
        var stringToSign: String
        var signature: String
    }

    func signature(for request: SignableRequest, at date: Double) -> Parts {
        let (amzDate, day) = Self.timestamps(date)
        var added: [(name: String, value: String)] = [("X-Amz-Date", amzDate)]
        if !addsTokenAfterSigning, let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        let headers = Self.canonicalHeaders(request.headers + added)
        let signedHeaders = headers.map(\.name).joined(separator: ";")
        let canonicalRequest = [
            request.method.uppercased(), canonicalPath(request.path), Self.canonicalQuery(request.query),
            headers.map { "\($0.name):\($0.value)\n" }.joined(), signedHeaders, request.payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        return Parts(addedHeaders: added, canonicalRequest: canonicalRequest, signedHeaders: signedHeaders,
                     scope: scope, stringToSign: stringToSign, signature: signature)
    }

    /// The path percent-encoded once (every byte but the unreserved characters and `/`), normalised first when
    /// ``normalizesPath``.
    func canonicalPath(_ path: String) -> String {
        let path = path.isEmpty ? "/" : path
        return SigV4Encoding.encode(normalizesPath ? SigV4Encoding.normalized(path) : path, keepingSlashes: true)
    }

    /// Names and values encoded, sorted by name then value, `name=value` joined with `&`.
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = query.map { pair in
            (SigV4Encoding.encode(pair.name), SigV4Encoding.encode(pair.value))
        }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
    }

    /// Names lowercased and sorted, values trimmed with inner runs of whitespace as one space, the values of
    /// a repeated name joined with commas in the order sent.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            values[name.lowercased(), default: []].append(words.joined(separator: " "))
        }
        return values.keys.sorted().map { ($0, values[$0, default: []].joined(separator: ",")) }
    }

    /// `20150830T123600Z` and `20150830`, in UTC.
    static func timestamps(_ date: Double) -> (String, String) {
        var time = time_t(date)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = Int(parts.tm_year) + 1900, month = Int(parts.tm_mon) + 1, dayOfMonth = Int(parts.tm_mday)
        let hour = Int(parts.tm_hour), minute = Int(parts.tm_min), second = Int(parts.tm_sec)
        let day = String(format: "%04d%02d%02d", year, month, dayOfMonth)
        let clock = String(format: "T%02d%02d%02dZ", hour, minute, second)
        return (day + clock, day)
    }

    static func hex<Digest: Sequence>(_ bytes: Digest) -> String where Digest.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
