import Foundation
import Testing
import TestSupport
import S3TestSupport
import AWSSigV4
import WebImage
@testable import WebImageServer

/// imgproxy's `s3://BUCKET/KEY` sources, against a real S3-compatible server (`moto_server`) that checks every
/// request's Signature Version 4.
@Suite struct ProxyS3SourceTests {
    static func path(_ options: String, _ source: String) -> String {
        URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart(options, source: source))
    }

    static func configuration(_ moto: MotoServer, secret: String? = nil) -> ImageProxyConfiguration {
        ProxyHarness.configuration {
            $0.sources.s3 = .init(endpoint: moto.endpoint, credentials: .init(accessKeyID: moto.accessKeyID,
                                                                              secretAccessKey: secret ?? moto.secretAccessKey))
        }
    }

    @Test func objectsAreReadSigned() async throws {
        let moto = try await MotoServer.start(bucket: "images", objects: ["photos/cat.png": try Fixtures.png(30, 20),
                                                                          "deep/a/b.jpg": try Fixtures.jpeg(40, 30)])
        defer { moto.stop() }
        try await ProxyHarness.with(Self.configuration(moto)) { harness in
            let cat = try await harness.get(Self.path("w:15/f:png", "s3://images/photos/cat.png"))
            #expect(cat.status == 200, "\(cat.text)")
            #expect(try cat.image().pixelSize == PixelSize(width: 15, height: 10))
            let deep = try await harness.get(Self.path("w:20", "s3://images/deep/a/b.jpg"))
            #expect(deep.status == 200 && deep.header("Content-Type") == "image/jpeg")
            let missing = try await harness.get(Self.path("w:20", "s3://images/photos/none.png"))
            #expect(missing.status == 404)
            let noBucket = try await harness.get(Self.path("w:20", "s3://other/photos/cat.png"))
            #expect(noBucket.status == 404)
            #expect(try await harness.get(Self.path("w:20", "s3://images")).status == 400)
        }
        // A wrong secret: the store refuses the signature (403), passed on as imgproxy does, the secret nowhere.
        try await ProxyHarness.with(Self.configuration(moto, secret: "wrong-secret-wJalrXUtnFEMI")) { harness in
            let refused = try await harness.get(Self.path("w:15", "s3://images/photos/cat.png"))
            #expect(refused.status == 403)
            #expect(!refused.text.contains("wrong-secret") && !refused.text.contains(moto.secretAccessKey))
        }
    }

    @Test func s3SourcesAreOffByDefault() async throws {
        try await ProxyHarness.with { harness in
            let answer = try await harness.get(Self.path("w:20", "s3://images/photos/cat.png"))
            #expect(answer.status == 404)
            #expect(answer.text.contains("--use-s3"))
        }
    }

    @Test func objectsAndTheirLocations() throws {
        let url = try #require(URL(string: "s3://bucket/a/b%20c.png?3HL4kqtJlcpX"))
        let object = try #require(S3Object(url))
        #expect(object.bucket == "bucket" && object.key == "a/b c.png" && object.version == "3HL4kqtJlcpX")
        let noKey = try #require(URL(string: "s3://bucket/"))
        #expect(S3Object(noKey) == nil)
        let credentials = SigV4Signer.Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
        let minio = ImageProxyConfiguration.S3(endpoint: URL(string: "http://minio.internal:9000"), credentials: credentials)
        let pathStyle = try #require(minio.location(bucket: "bucket", key: "a/b c+(1).png"))
        #expect(pathStyle.url.absoluteString == "http://minio.internal:9000/bucket/a/b%20c%2B%281%29.png")
        #expect(pathStyle.host == "minio.internal:9000" && pathStyle.path == "/bucket/a/b c+(1).png")
        var aws = ImageProxyConfiguration.S3(region: "eu-west-1", credentials: credentials)
        aws.usesPathStyle = false
        let hosted = try #require(aws.location(bucket: "bucket", key: "k.png"))
        #expect(hosted.url.absoluteString == "https://bucket.s3.eu-west-1.amazonaws.com/k.png" && hosted.path == "/k.png")
    }
}
