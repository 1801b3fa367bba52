import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RedisTestSupport
import TestSupport
import AWSSigV4

/// A real S3-compatible server on 127.0.0.1: `moto_server` from PyPI's `moto[server]` (`Scripts/setup.sh` puts it
/// in `.build-moto/`). Started with `INITIAL_NO_AUTH_ACTION_COUNT`, it takes the first few actions unsigned —
/// an IAM user with an S3 policy and its access key, a bucket and its objects — and checks every request's
/// Signature Version 4 after them.
public final class MotoServer: Sendable {
    public let port: Int
    public let accessKeyID: String
    public let secretAccessKey: String
    private let process: SpawnedProcess

    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, accessKeyID: String, secretAccessKey: String, process: SpawnedProcess) {
        self.port = port
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.process = process
    }

    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["MOTO_SERVER"] { return URL(fileURLWithPath: path) }
        return TestCorpus.packageRoot.appendingPathComponent(".build-moto/bin/moto_server")
    }

    /// A server holding `objects` (key → bytes) in `bucket`, and a key that may read them.
    public static func start(bucket: String, objects: [String: Data]) async throws -> MotoServer {
        let port = try RedisServerProcess.freePort()
        // Unsigned: the user, its policy, its key, the bucket, each object.
        let process = try SpawnedProcess(executable, ["-H", "127.0.0.1", "-p", "\(port)"],
                                         environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "\(4 + objects.count)",
                                                       "PATH": "/usr/bin:/bin"])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            defer { Task { try? await client.shutdown() } }
            try await waitUntilListening(port: port, client: client)
            let user = ["Version": "2010-05-08", "UserName": "webimage"]
            _ = try await call(client, port: port, service: "iam", form: user.merging(["Action": "CreateUser"]) { $1 })
            let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
            _ = try await call(client, port: port, service: "iam", form: user.merging([
                "Action": "PutUserPolicy", "PolicyName": "read", "PolicyDocument": policy]) { $1 })
            let created = try await call(client, port: port, service: "iam",
                                         form: user.merging(["Action": "CreateAccessKey"]) { $1 })
            _ = try await call(client, port: port, service: "s3", method: .PUT, path: "/\(bucket)")
            for (key, data) in objects {
                _ = try await call(client, port: port, service: "s3", method: .PUT, path: "/\(bucket)/\(key)", body: data)
            }
            return MotoServer(port: port, accessKeyID: try element("AccessKeyId", in: created),
                              secretAccessKey: try element("SecretAccessKey", in: created), process: process)
        } catch {
            process.signal(SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    /// Writes `data` under `key` in `bucket` with `metadata` (`x-amz-meta-NAME` headers) as a client of the store
    /// does: signed with the server's key, which moto checks once its unsigned setup actions are spent.
    public func put(_ key: String, _ data: Data, bucket: String, metadata: [String: String] = [:]) async throws {
        let headers = metadata.sorted { $0.key < $1.key }.map { (name: "x-amz-meta-\($0.key)", value: $0.value) }
        let (status, text, _) = try await signedCall(.PUT, "/\(bucket)/\(key)", body: data, headers: headers)
        guard status == 200 else { throw Failure(description: "moto PUT /\(bucket)/\(key): \(status) \(String(decoding: text, as: UTF8.self))") }
    }

    /// The bytes under `key` in `bucket` and their `x-amz-meta-*` metadata (by name, without the prefix), or nil
    /// when there is no such object.
    public func object(_ key: String, bucket: String) async throws -> (data: Data, metadata: [String: String])? {
        let (status, body, headers) = try await signedCall(.GET, "/\(bucket)/\(key)")
        if status == 404 { return nil }
        guard status == 200 else { throw Failure(description: "moto GET /\(bucket)/\(key): \(status)") }
        let metadata = headers.filter { $0.name.lowercased().hasPrefix("x-amz-meta-") }
            .map { (String($0.name.dropFirst("x-amz-meta-".count)).lowercased(), $0.value) }
        return (body, Dictionary(metadata) { first, _ in first })
    }

    /// The names of the objects in `bucket` (the first thousand).
    public func keys(bucket: String) async throws -> [String] {
        let (status, body, _) = try await signedCall(.GET, "/\(bucket)")
        let xml = String(decoding: body, as: UTF8.self)
        guard status == 200 else { throw Failure(description: "moto list /\(bucket): \(status) \(xml)") }
        return xml.components(separatedBy: "<Key>").dropFirst().compactMap { $0.components(separatedBy: "</Key>").first }
    }

    private func signedCall(_ method: HTTPMethod, _ path: String, body: Data? = nil,
                            headers: [(name: String, value: String)] = []) async throws
        -> (status: Int, body: Data, headers: [(name: String, value: String)]) {
        let host = "127.0.0.1:\(port)"
        let signer = SigV4Signer(credentials: .init(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey),
                                 region: "us-east-1")
        let sent = signer.s3Headers(method: method.rawValue, host: host, path: path, headers: headers,
                                    payloadHash: body.map { SigV4Signer.payloadHash(of: $0) } ?? SigV4Signer.emptyPayloadHash,
                                    at: Date().timeIntervalSince1970)
        var request = HTTPClientRequest(url: "http://\(host)\(SigV4Signer.encodedPath(path))")
        request.method = method
        for (name, value) in sent where name != "Host" { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await client.shutdown() } }
        let response = try await client.execute(request, timeout: .seconds(10))
        let received = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(received.readableBytesView), response.headers.map { ($0.name, $0.value) })
    }

    /// Kills the server: SIGKILL, because a child can inherit a blocked SIGTERM from the test runner's thread.
    public func stop() {
        process.signal(SIGKILL)
        process.waitUntilExit()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func waitUntilListening(port: Int, client: HTTPClient) async throws {
        for _ in 0..<300 {
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/moto-api/")
            if (try? await client.execute(request, timeout: .seconds(1))) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "moto_server did not start on port \(port) (\(executable.path))")
    }

    /// An unsigned call, routed to `service` by a credential scope moto reads (its signature is not checked
    /// for the first actions).
    private static func call(_ client: HTTPClient, port: Int, service: String, method: HTTPMethod = .POST,
                             path: String = "/", form: [String: String]? = nil, body: Data? = nil) async throws -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "AWS4-HMAC-SHA256 Credential=SETUP/20260101/us-east-1/"
                            + "\(service)/aws4_request, SignedHeaders=host, Signature=0")
        if let form {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let text = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                .joined(separator: "&")
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: text))
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok else {
            throw Failure(description: "moto \(service) \(method) \(path): \(response.status.code) \(text)")
        }
        return text
    }

    private static func element(_ name: String, in xml: String) throws -> String {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else {
            throw Failure(description: "no <\(name)> in \(xml)")
        }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}
