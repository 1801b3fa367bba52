import Crypto

/// imgproxy's `IMGPROXY_SECRET`: the token image and info requests must carry as `Authorization: Bearer TOKEN`.
struct BearerSecret: Sendable {
    /// The SHA-256 of the whole header value expected: comparing digests of a fixed length, every byte, takes as
    /// long whatever the guess.
    private let expected: [UInt8]

    init(_ token: String) {
        expected = Array(SHA256.hash(data: Array("Bearer \(token)".utf8)))
    }

    /// Whether `authorization` (the header's value) is the expected one.
    func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let given = Array(SHA256.hash(data: Array(authorization.utf8)))
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}
