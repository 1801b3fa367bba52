import Crypto
import Foundation

/// imgproxy's URL signature: HMAC-SHA256 over salt + path with a key, base64url without padding, optionally
/// truncated; several key/salt pairs are accepted at once so keys can be rotated.
public struct URLSigner: Sendable {
    /// A key and its salt, as bytes.
    public struct KeyPair: Sendable, Hashable {
        public var key: [UInt8]
        public var salt: [UInt8]

        /// A pair from hex strings (`--key`, `--salt`); nil when either is not even-length hex or is empty.
        public init?(keyHex: String, saltHex: String) {
            guard let key = Self.bytes(hex: keyHex), let salt = Self.bytes(hex: saltHex), !key.isEmpty else { return nil }
            self.key = key
            self.salt = salt
        }

        static func bytes(hex: String) -> [UInt8]? {
            let digits = Array(hex.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(digits.count / 2)
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
                bytes.append(high << 4 | low)
            }
            return bytes
        }

        private static func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }

    /// The accepted pairs; the first signs.
    public var keyPairs: [KeyPair]
    /// Bytes of the digest kept in the signature (imgproxy's `IMGPROXY_SIGNATURE_SIZE`). Default 32: all.
    public var signatureSize: Int

    public init(keyPairs: [KeyPair], signatureSize: Int = 32) {
        self.keyPairs = keyPairs
        self.signatureSize = min(32, max(1, signatureSize))
    }

    /// The signature of `path` (the part after the signature, leading `/` included) with `pair`.
    public func signature(of path: some StringProtocol, with pair: KeyPair) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: pair.key))
        hmac.update(data: pair.salt)
        hmac.update(data: Array(path.utf8))
        return Base64URL.encode(Array(hmac.finalize()).prefix(signatureSize))
    }

    /// The path signed with the first pair: `/<signature><path>`.
    public func sign(_ path: String) -> String {
        guard let pair = keyPairs.first else { return "/_" + path }
        return "/" + signature(of: path, with: pair) + path
    }

    /// Whether `signature` is `path`'s signature under any of the pairs (compared in constant time).
    public func isValid(signature: some StringProtocol, for path: some StringProtocol) -> Bool {
        let given = Array(signature.utf8)
        var valid = false
        for pair in keyPairs {
            let expected = Array(self.signature(of: path, with: pair).utf8)
            guard expected.count == given.count else { continue }
            var difference: UInt8 = 0
            for index in expected.indices { difference |= expected[index] ^ given[index] }
            valid = valid || difference == 0
        }
        return valid
    }
}
