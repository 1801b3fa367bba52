import AsyncHTTPClient
import AWSSigV4
import Foundation
import Glibc
import NIOCore
import S3TestSupport
import TestSupport
import WebImage
import WebImageServer

/// Cold `webimage serve` requests for the same photos from an S3-compatible store (`moto_server` on loopback,
/// every request signed and its signature checked) and over plain http (the in-process loopback origin): a new
/// `ImageProxy` per round with no disk cache, so each request downloads, decodes, resizes to 256 px and encodes.
/// Beside them, the bare fetches (a signed GET from moto, a GET from the origin) show what the store itself costs.
enum S3Benchmark {
    static let photos = 40, rounds = 3, concurrency = 4
    static let options = "rs:fit:256:256/q:75"

    enum Failure: Error { case status(Int, String) }

    static func run() throws { try Measure.waitFor { try await runAsync() } }

    private static func runAsync() async throws {
        var objects: [String: Data] = [:]
        for index in 0..<photos {
            let pixels = PhotoRaster.make(width: 1024 + index, height: 768)
            objects["p\(index).jpg"] = try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg,
                                                                        options: ImageEncodeOptions(quality: 0.85))
        }
        let moto = try await MotoServer.start(bucket: "bench", objects: objects)
        defer { moto.stop() }
        let origin = try await TestHTTPServer.start()
        for (key, data) in objects { origin.route("/" + key, TestResponse(headers: [("Content-Type", "image/jpeg")], body: data)) }
        let keys = objects.keys.sorted()
        var proxied: [Bool: [Double]] = [false: [], true: []], cpu: [Bool: [Double]] = [false: [], true: []]
        var bare: [Bool: [Double]] = [false: [], true: []]
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        for _ in 0..<rounds {
            for fromS3 in [false, true] {
                var configuration = ImageProxyConfiguration(
                    signing: .init(allowsUnsigned: true), sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true)),
                    timeouts: .init(download: .seconds(60), downloadIdle: .seconds(60), processing: .seconds(60)),
                    concurrency: .init(workers: 2))
                configuration.sources.s3 = .init(endpoint: moto.endpoint, credentials: .init(
                    accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey))
                let proxy = ImageProxy(configuration: configuration)
                let targets = keys.map { key in
                    let source = fromS3 ? "s3://bench/\(key)" : origin.url("/" + key).absoluteString
                    return "/_/\(options)/plain/" + (source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source) + "@webp"
                }
                let cpuStart = processCPUSeconds(), start = ContinuousClock.now
                try await forEach(targets) { target in
                    let answer = await proxy.image(ProxyRequest(target: target))
                    if answer.status != 200 { throw Failure.status(answer.status, target) }
                }
                proxied[fromS3]!.append(Double(photos) / DeadlineBenchmark.seconds(ContinuousClock.now - start))
                cpu[fromS3]!.append((processCPUSeconds() - cpuStart) * 1000 / Double(photos))
                await proxy.shutdown()

                let fetchStart = ContinuousClock.now
                try await forEach(keys) { key in
                    let request = fromS3 ? signedGet(moto, key: key) : HTTPClientRequest(url: origin.url("/" + key).absoluteString)
                    let response = try await client.execute(request, timeout: .seconds(60))
                    _ = try await response.body.collect(upTo: 16 << 20)
                    if response.status != .ok { throw Failure.status(Int(response.status.code), key) }
                }
                bare[fromS3]!.append(Double(photos) / DeadlineBenchmark.seconds(ContinuousClock.now - fetchStart))
            }
        }
        try await client.shutdown()
        try await origin.shutdown()
        func range(_ values: [Double]) -> String { String(format: "%.1f–%.1f", values.min() ?? .nan, values.max() ?? .nan) }
        let ratios = zip(proxied[true]!, proxied[false]!).map { $0 / $1 }
        print("cold \(options)@webp, \(photos) photos 1024 px, c=\(concurrency), \(rounds) rounds")
        print("  http origin : \(range(proxied[false]!)) req/s, \(range(cpu[false]!)) ms CPU/request (this process); bare GETs \(range(bare[false]!)) req/s")
        print("  S3 (moto)   : \(range(proxied[true]!)) req/s, \(range(cpu[true]!)) ms CPU/request (this process); bare signed GETs \(range(bare[true]!)) req/s")
        print("  S3 ÷ http   : \(range(ratios))× (moto_server is Python: its own GET rate bounds the S3 side)")
    }

    /// Runs `body` for every item, `concurrency` at a time.
    private static func forEach<T: Sendable>(_ items: [T], _ body: @escaping @Sendable (T) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(concurrency, items.count) {
                let item = items[next]
                group.addTask { try await body(item) }
                next += 1
            }
            while try await group.next() != nil, next < items.count {
                let item = items[next]
                group.addTask { try await body(item) }
                next += 1
            }
            try await group.waitForAll()
        }
    }

    /// A GET of `key` signed as the service signs it.
    private static func signedGet(_ moto: MotoServer, key: String) -> HTTPClientRequest {
        let path = "/bench/\(key)", host = "127.0.0.1:\(moto.port)"
        let signer = SigV4Signer(credentials: .init(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey),
                                 region: "us-east-1")
        let signed: [(name: String, value: String)] = [("Host", host), ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash)]
        var request = HTTPClientRequest(url: "http://\(host)\(SigV4Signer.encodedPath(path))")
        let authentication = signer.authenticationHeaders(for: SignableRequest(method: "GET", path: path, headers: signed),
                                                          at: Date().timeIntervalSince1970)
        for (name, value) in signed + authentication where name != "Host" { request.headers.add(name: name, value: value) }
        return request
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
