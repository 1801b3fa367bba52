import Foundation
import Testing
import AWSSigV4

/// S3's worked `PUT` example ("Signature calculations for the Authorization header: transferring payload in a
/// single chunk"): the body's SHA-256 as `x-amz-content-sha256`, and a caller's `x-amz-*` header signed with it.
@Suite struct SigV4S3PutTests {
    @Test func putObjectExample() throws {
        let signer = SigV4Signer(credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1")
        let body = Data("Welcome to Amazon S3.".utf8)
        let payloadHash = SigV4Signer.payloadHash(of: body)
        #expect(payloadHash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let date = try Date.ISO8601FormatStyle().parse("2013-05-24T00:00:00Z").timeIntervalSince1970
        let headers = signer.s3Headers(method: "PUT", host: "examplebucket.s3.amazonaws.com", path: "/test$file.text",
                                       headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                                                 ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
                                       payloadHash: payloadHash, at: date)
        #expect(headers.map(\.name) == ["Host", "x-amz-content-sha256", "Date", "x-amz-storage-class", "X-Amz-Date",
                                        "Authorization"])
        #expect(headers.first { $0.name == "x-amz-content-sha256" }?.value == payloadHash)
        #expect(headers.last?.value
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
                + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(SigV4Signer.encodedPath("/test$file.text") == "/test%24file.text")
    }
}
