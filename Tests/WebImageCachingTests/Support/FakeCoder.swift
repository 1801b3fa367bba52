import Foundation
import Synchronization
import WebImage

/// A coder for a tiny test format, so cache tests need no real codec.
///
/// Bytes: "FAKE", then width, height, frame count, alpha flag, the format tag it was encoded for (0 when
/// written by hand) and the fill value — one byte each. Decoding builds solid frames of that value; encoding
/// writes the same layout with the tag of the requested format, so tests can see which format was chosen.
final class FakeCoder: ImageCoding {
    static let magic: [UInt8] = Array("FAKE".utf8)
    /// The formats `canEncode(to:)` accepts.
    let encodable: Set<ImageFormat>
    /// Seconds each decode takes (to keep queries in flight).
    let decodeDelay: Double
    /// When set, each decode waits for a signal on it (holds a query in flight for as long as a test needs).
    let decodeGate: DispatchSemaphore?
    private let decodes = Atomic<Int>(0)
    private let lastOptions = Mutex<ImageDecodeOptions?>(nil)

    init(encodable: Set<ImageFormat> = [.jpeg, .png, .gif], decodeDelay: Double = 0, decodeGate: DispatchSemaphore? = nil) {
        self.encodable = encodable
        self.decodeDelay = decodeDelay
        self.decodeGate = decodeGate
    }

    /// How many decodes ran.
    var decodeCount: Int { decodes.load(ordering: .relaxed) }
    /// The options of the latest decode.
    var lastDecodeOptions: ImageDecodeOptions? { lastOptions.withLock { $0 } }

    /// Bytes for a `width × height` image of `frames` frames filled with `fill`.
    static func bytes(width: Int = 2, height: Int = 2, frames: Int = 1, alpha: Bool = false, fill: UInt8 = 7) -> Data {
        Data(magic + [UInt8(width), UInt8(height), UInt8(frames), alpha ? 1 : 0, 0, fill])
    }

    /// The tag `encode` writes for a format.
    static func tag(_ format: ImageFormat) -> UInt8 {
        UInt8(ImageFormat.allCases.firstIndex(of: format)! + 1)
    }

    /// The format an encoded entry was written as (nil for hand-made bytes).
    static func encodedFormat(of data: Data) -> ImageFormat? {
        guard data.count >= 10, data[data.startIndex + 8] > 0 else { return nil }
        return ImageFormat.allCases[Int(data[data.startIndex + 8]) - 1]
    }

    func canDecode(_ data: Data) -> Bool { data.starts(with: Self.magic) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        decodes.wrappingAdd(1, ordering: .relaxed)
        lastOptions.withLock { $0 = options }
        if decodeDelay > 0 { Thread.sleep(forTimeInterval: decodeDelay) }
        decodeGate?.wait()
        let bytes = [UInt8](data)
        guard bytes.count == 10 else { throw WebImageError.badImageData(.truncated) }
        let width = Int(bytes[4]), height = Int(bytes[5])
        let frameCount = options.firstFrameOnly ? 1 : Int(bytes[6])
        let alpha = bytes[7] == 1
        let pixels = PixelBuffer(width: width, height: height, format: .rgba8,
                                 bytes: [UInt8](repeating: bytes[9], count: width * height * 4))
        let frames = (0..<frameCount).map { _ in ImageFrame(pixels: pixels, duration: 0.1) }
        return Image(frames: frames, scale: options.resolvedScale, hasAlpha: alpha)
    }

    func canEncode(to format: ImageFormat) -> Bool { encodable.contains(format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard encodable.contains(format) else {
            throw WebImageError.encodingFailed(format: format, reason: "fake coder does not write it")
        }
        return Data(Self.magic + [UInt8(image.pixelWidth), UInt8(image.pixelHeight), UInt8(image.frameCount),
                                  image.hasAlpha ? 1 : 0, Self.tag(format), image.pixels.bytes[0]])
    }
}
