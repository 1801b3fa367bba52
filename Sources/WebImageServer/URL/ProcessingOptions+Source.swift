import Crypto
import Foundation
import WebImage

/// imgproxy Pro's options about the source itself: its digest (`hashsum`) and whether its animation counts
/// (`disable_animation`).
extension ProcessingOptions {
    /// `hashsum`: the source must have this digest, else the answer is 422 and nothing is processed.
    public struct Hashsum: Sendable, Hashable {
        public enum Algorithm: String, Sendable, Hashable, CaseIterable {
            case md5, sha1, sha256, sha512

            /// The digest's length in bytes.
            var byteCount: Int {
                switch self {
                case .md5: 16
                case .sha1: 20
                case .sha256: 32
                case .sha512: 64
                }
            }

            func digest(_ data: Data) -> [UInt8] {
                switch self {
                case .md5: Array(Insecure.MD5.hash(data: data))
                case .sha1: Array(Insecure.SHA1.hash(data: data))
                case .sha256: Array(SHA256.hash(data: data))
                case .sha512: Array(SHA512.hash(data: data))
                }
            }
        }

        public var algorithm: Algorithm
        public var digest: [UInt8]

        public init(algorithm: Algorithm, digest: [UInt8]) {
            self.algorithm = algorithm
            self.digest = digest
        }

        /// The digest as lower-case hex.
        var hex: String { digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

        /// Throws 422 (imgproxy's answer) unless `data` has this digest.
        func check(_ data: Data) throws(ProxyError) {
            guard algorithm.digest(data) == digest else {
                throw .unprocessable("the source's \(algorithm.rawValue) digest is not the URL's hashsum")
            }
        }
    }
}
