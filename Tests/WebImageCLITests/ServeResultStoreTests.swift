import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import S3TestSupport
import TestSupport
import Testing
import WebImage
import WebImageServer
@testable import webimage

/// `webimage serve --result-store s3://BUCKET/PREFIX`: the store from the `--s3-*` settings, its own settings by
/// flag or environment, and two real processes sharing a result through a real `moto_server`.
@Suite struct ServeResultStoreTests {
    static let key = ["--s3-access-key-id", "AKIDEXAMPLE", "--s3-secret-access-key", "secret"]

    @Test func flagsAndTheirDefaults() throws {
        let settings = try ServeSettings(arguments: ["--allow-unsigned", "--result-store", "s3://results/thumbs/v2/",
                                                     "--s3-endpoint", "http://minio.internal:9000"] + Self.key,
                                         environment: [:])
        let store = try #require(settings.configuration.caches.resultStore)
        #expect(store.bucket == "results" && store.prefix == "thumbs/v2")
        #expect(store.store?.endpoint?.absoluteString == "http://minio.internal:9000")
        #expect(store.store?.credentials.accessKeyID == "AKIDEXAMPLE" && store.store?.region == "us-east-1")
        #expect(store.timeToLive == .seconds(604_800) && store.deadline == .milliseconds(200))
        #expect(store.breakerFailureThreshold == 3 && store.breakerOpenDuration == .seconds(5))
        #expect(store.maxPendingWrites == 64 && store.maxEntryBytes == 16 << 20)
        // S3 sources are off: the store is not theirs.
        #expect(settings.configuration.sources.s3 == nil)
        #expect(try ServeSettings(arguments: ["--allow-unsigned"], environment: [:]).configuration.caches.resultStore == nil)
    }

    @Test func withS3SourcesOnTheStoreIsTheirs() throws {
        let settings = try ServeSettings(arguments: ["--allow-unsigned", "--use-s3"] + Self.key,
                                         environment: ["WEBIMAGE_RESULT_STORE": "s3://results",
                                                       "WEBIMAGE_RESULT_STORE_DEADLINE_MS": "50",
                                                       "WEBIMAGE_RESULT_STORE_TTL": "60"])
        let store = try #require(settings.configuration.caches.resultStore)
        #expect(store.bucket == "results" && store.prefix == "" && store.store == nil)
        #expect(store.deadline == .milliseconds(50) && store.timeToLive == .seconds(60))
        #expect(settings.configuration.sources.s3 != nil)
    }

    @Test func badValuesNameTheFlag() {
        let cases: [([String], String)] = [
            (["--result-store", "https://results/thumbs"], "webimage: --result-store: bad value 'https://results/thumbs': give s3://BUCKET/PREFIX"),
            (["--result-store", "s3:///thumbs"], "webimage: --result-store: bad value 's3:///thumbs': give s3://BUCKET/PREFIX"),
            (["--result-store", "s3://results/a?b"], "webimage: --result-store: bad value 's3://results/a?b': give s3://BUCKET/PREFIX"),
            (["--result-store", "s3://results"], "webimage: --result-store: give the store's key: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
            (["--result-store-deadline-ms", "0"], "webimage: --result-store-deadline-ms: bad value '0': give a positive whole number"),
        ]
        for (arguments, line) in cases {
            do {
                _ = try ServeSettings(arguments: ["--allow-unsigned"] + arguments, environment: [:])
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect("\(error)" == line)
            }
        }
    }

    /// Two `webimage serve` processes with caches of their own and no Redis: the second answers a result the
    /// first made from the store, without asking the origin.
    @Test func twoProcessesShareAResult() async throws {
        let moto = try await MotoServer.start(bucket: "results", objects: [:])
        defer { moto.stop() }
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        let pixels = PixelBuffer(width: 8, height: 8) { out in for i in out.indices { out[i] = UInt8(i % 256) } }
        origin.route("/a.png", TestResponse(headers: [("Content-Type", "image/png")],
                                            body: try CodersManager.shared.encode(Image(pixels: pixels), as: .png,
                                                                                  options: ImageEncodeOptions())))
        let arguments = ["--result-store", "s3://results/thumbs", "--s3-endpoint", moto.endpoint.absoluteString]
        let environment = ["AWS_ACCESS_KEY_ID": moto.accessKeyID, "AWS_SECRET_ACCESS_KEY": moto.secretAccessKey]
        let source = origin.url("/a.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let path = "/_/w:4/plain/\(source)@png"

        let first = try await ServeProcess.start(arguments, environment: environment)
        let made = try await Self.get(path, port: first.port)
        #expect(made.status == 200)
        var stored: [String] = []
        for _ in 0..<300 where stored.isEmpty {
            stored = try await moto.keys(bucket: "results")
            if stored.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(stored.count == 1 && stored.allSatisfy { $0.hasPrefix("thumbs/") && !$0.contains("a.png") })
        #expect(first.stop() == 0)

        let second = try await ServeProcess.start(arguments, environment: environment)
        let served = try await Self.get(path, port: second.port)
        #expect(served.status == 200 && served.body == made.body && served.etag == made.etag)
        #expect(origin.requestCount(for: "/a.png") == 1)
        let metrics = try second.metricsText()
        #expect(metrics.contains("swiftwebimage_result_store_hits_total{tier=\"s3\"} 1"), "\(metrics)")
        #expect(second.stop() == 0)
    }

    private static func get(_ path: String, port: Int) async throws -> (status: Int?, body: Data, etag: String?) {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let (body, response) = try await URLSession.shared.data(from: url)
        let http = response as? HTTPURLResponse
        return (http?.statusCode, body, http?.value(forHTTPHeaderField: "ETag"))
    }
}
