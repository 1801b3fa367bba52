import Foundation
import Synchronization
import WebImage

/// Every built-in coder behind one that counts the decodes it does (downloads' and disk hits' alike).
final class CountingCoder: ImageCoding {
    private let decodes = Atomic<Int>(0)

    /// How many images were decoded.
    var decodeCount: Int { decodes.load(ordering: .relaxed) }

    func canDecode(_ data: Data) -> Bool { CodersManager.shared.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        decodes.add(1, ordering: .relaxed)
        return try CodersManager.shared.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { CodersManager.shared.canEncode(to: format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try CodersManager.shared.encode(image, as: format, options: options)
    }
}
