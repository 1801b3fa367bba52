import Testing
@testable import WebImageServer

@Suite struct URLSignerTests {
    static let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    static func pair(_ key: String, _ salt: String) throws -> URLSigner.KeyPair {
        try #require(URLSigner.KeyPair(keyHex: key, saltHex: salt))
    }

    @Test func imgproxysPublishedExampleIsTheTestVector() throws {
        let signer = URLSigner(keyPairs: [try Self.pair("736563726574", "68656C6C6F")])
        #expect(signer.signature(of: Self.path, with: signer.keyPairs[0]) == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
        #expect(signer.isValid(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.path))
        #expect(signer.sign(Self.path) == "/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8" + Self.path)
    }

    @Test func aChangedPathOrSignatureIsRejected() throws {
        let signer = URLSigner(keyPairs: [try Self.pair("736563726574", "68656C6C6F")])
        #expect(!signer.isValid(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.path + "x"))
        #expect(!signer.isValid(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH9", for: Self.path))
        #expect(!signer.isValid(signature: "", for: Self.path))
        #expect(!signer.isValid(signature: "_", for: Self.path))
    }

    @Test func everyPairIsAcceptedForRotation() throws {
        let old = try Self.pair("736563726574", "68656C6C6F"), new = try Self.pair("6e6577206b6579", "73616c74")
        let rotating = URLSigner(keyPairs: [new, old])
        #expect(rotating.isValid(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.path))
        let signedWithNew = URLSigner(keyPairs: [new]).signature(of: Self.path, with: new)
        #expect(rotating.isValid(signature: signedWithNew, for: Self.path))
        #expect(!URLSigner(keyPairs: [old]).isValid(signature: signedWithNew, for: Self.path))
    }

    @Test func aTruncatedSignatureKeepsTheDigestsFirstBytes() throws {
        let pair = try Self.pair("736563726574", "68656C6C6F")
        let short = URLSigner(keyPairs: [pair], signatureSize: 8)
        // The first 8 bytes of the full digest, base64url: 11 characters.
        #expect(short.signature(of: Self.path, with: pair) == "oKfUtW34Dvo")
        #expect(short.isValid(signature: "oKfUtW34Dvo", for: Self.path))
        #expect(!short.isValid(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.path))
    }

    @Test func keysAndSaltsMustBeHex() {
        #expect(URLSigner.KeyPair(keyHex: "abc", saltHex: "00") == nil)
        #expect(URLSigner.KeyPair(keyHex: "zz", saltHex: "00") == nil)
        #expect(URLSigner.KeyPair(keyHex: "", saltHex: "00") == nil)
        #expect(URLSigner.KeyPair(keyHex: "AbCd", saltHex: "")?.key == [0xAB, 0xCD])
    }
}
