import Foundation
import Testing
@testable import WebImageServer

/// The URL-safe base64 of signatures and sources, against Foundation's standard base64 as the oracle.
@Suite struct Base64URLTests {
    private static func oracle(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAndDecodesEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.oracle(bytes))
            #expect(Base64URL.decode(Substring(encoded)) == Data(bytes))
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            #expect(Base64URL.decode(Substring(padded)) == Data(bytes))
        }
        let every = (0...255).map(UInt8.init)
        #expect(Base64URL.decode(Substring(Base64URL.encode(every))) == Data(every))
        #expect(Base64URL.encode(Array("http://example.com/images/curiosity.jpg".utf8))
            == "aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlcy9jdXJpb3NpdHkuanBn")
    }

    @Test func refusesForeignCharactersAndImpossibleLengths() {
        for text in ["aGVsbG8+", "aGVsbG8/", "aGVs bG8", "aGVsbG8é", "a", "aGVsb"] {
            #expect(Base64URL.decode(Substring(text)) == nil, "\(text)")
        }
        #expect(Base64URL.decode("") == Data())
    }
}
