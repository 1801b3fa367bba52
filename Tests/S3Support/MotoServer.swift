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

    /// Writes `data` under `key` in `bucket` as a client of the store does: signed with the server's key, which
    /// moto checks once its unsigned setup actions are spent.
    public func put(_ key: String, _ data: Data, bucket: String) async throws {
        let path = "/\(bucket)/\(key)"
        let host = "127.0.0.1:\(port)"
        let payloadHash = SigV4Signer.payloadHash(of: data)
        let signer = SigV4Signer(credentials: .init(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey),
                                 region: "us-east-1")
        let signed: [(name: String, value: String)] = [("Host", host), ("x-amz-content-sha256", payloadHash)]
        let authentication = signer.authenticationHeaders(
            for: SignableRequest(method: "PUT", path: path, headers: signed, payloadHash: payloadHash),
            at: Date().timeIntervalSince1970)
        var request = HTTPClientRequest(url: "http://\(host)\(SigV4Signer.encodedPath(path))")
        request.method = .PUT
        for (name, value) in signed + authentication where name != "Host" { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: data))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await client.shutdown() } }
        let response = try await client.execute(request, timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok else { throw Failure(description: "moto PUT \(path): \(response.status.code) \(text)") }
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
