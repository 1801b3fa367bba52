import Crypto
import Foundation

/// The checksum a stored value carries so a reader can tell it from one whose bytes changed after it was
/// written: the first 16 bytes of the SHA-256 of its bytes. The shared tier's frames and the service's disk
/// caches use it alike.
public enum ValueChecksum {
    /// Bytes of a checksum.
    public static let size = 16

    /// The checksum of `bytes`.
    public static func of(_ bytes: some DataProtocol) -> [UInt8] {
        Array(SHA256.hash(data: bytes).prefix(size))
    }
}
