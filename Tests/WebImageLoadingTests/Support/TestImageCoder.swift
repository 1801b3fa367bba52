import Foundation
import WebImage

/// A tiny image format for loader tests while the real codecs land elsewhere: `TIMG`, width and height as
/// big-endian UInt16, then any payload. Decoding makes a width × height RGBA buffer and applies the decode
/// options (so thumbnails come out at their requested size).
final class TestImageCoder: ProgressiveImageCoding {
    static let magic = Data("TIMG".utf8)

    /// The bytes of a `width` × `height` test image followed by `payload` filler bytes.
    static func encode(width: Int, height: Int, payload: Int = 0) -> Data {
        var data = magic
        data.append(contentsOf: [UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF)])
        data.append(Data((0..<payload).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        return data
    }

    func canDecode(_ data: Data) -> Bool { data.starts(with: Self.magic) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard data.count >= 8 else { throw WebImageError.badImageData(.truncated) }
        let bytes = [UInt8](data.prefix(8))
        let width = Int(bytes[4]) << 8 | Int(bytes[5]), height = Int(bytes[6]) << 8 | Int(bytes[7])
        try options.checkPixelCount(width: width, height: height)
        let image = Image(pixels: PixelBuffer(width: width, height: height), format: .undefined, hasAlpha: false)
        return options.finish(image, sourceSize: PixelSize(width: width, height: height))
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "test coder")
    }

    func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }

    func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        TestProgressiveDecoder(options: options)
    }
}

/// Shows a partial image whose height is the share of the payload received so far (at least one row).
final class TestProgressiveDecoder: ProgressiveImageDecoder {
    let options: ImageDecodeOptions
    init(options: ImageDecodeOptions) { self.options = options }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        guard data.count >= 8 else { return nil }
        let bytes = [UInt8](data.prefix(8))
        let width = Int(bytes[4]) << 8 | Int(bytes[5])
        return Image(frames: [ImageFrame(pixels: PixelBuffer(width: width, height: 1))], hasAlpha: false,
                     isIncremental: !isFinished)
    }
}

extension CodersManager {
    /// A manager with only the test coder.
    static func testing() -> CodersManager { CodersManager(coders: [TestImageCoder()]) }
}
