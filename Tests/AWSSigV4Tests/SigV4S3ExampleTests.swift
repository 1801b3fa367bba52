import Foundation
import Testing
@testable import AWSSigV4

/// S3's own worked example ("Signature calculations for the Authorization header", GET object with a range),
/// and what S3 keys need: the key signed as written (no dot-segment removal), every byte outside the unreserved
/// characters encoded once.
@Suite struct SigV4S3ExampleTests {
    static let signer = SigV4Signer(credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                       secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                    region: "us-east-1")

    @Test func getObjectExample() throws {
        let request = SignableRequest(method: "GET", path: "/test.txt",
                                      headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                                                ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash)])
        let date = try Date.ISO8601FormatStyle().parse("2013-05-24T00:00:00Z").timeIntervalSince1970
        let headers = Self.signer.authenticationHeaders(for: request, at: date)
        #expect(headers.first { $0.name == "X-Amz-Date" }?.value == "20130524T000000Z")
        #expect(headers.first { $0.name == "Authorization" }?.value
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func keysAreSignedAsWritten() {
        #expect(Self.signer.canonicalPath("/bucket/a/../b c+(1)/ሴ.jpg") == "/bucket/a/../b%20c%2B%281%29/%E1%88%B4.jpg")
        #expect(Self.signer.canonicalPath("") == "/")
        #expect(SigV4Signer.canonicalQuery([(name: "versionId", value: "3/L4kqtJl40Nr8X8gdRQBpUMLUo"), (name: "a", value: "")])
                == "a=&versionId=3%2FL4kqtJl40Nr8X8gdRQBpUMLUo")
    }
}
