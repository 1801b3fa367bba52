import Foundation
import Synchronization

/// The ordered list of coders the pipeline decodes and encodes with (SDWebImage's `SDImageCodersManager`).
///
/// The **last added coder has the highest priority**: decoding asks coders from the newest to the oldest and
/// the first that can decode the bytes does. `CodersManager.shared` (from `import WebImage`) has every
/// built-in coder registered; add your own at run time to override a format.
///
/// ```swift
/// CodersManager.shared.addCoder(MyHEICCoder())
/// let image = try CodersManager.shared.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: .init(width: 256, height: 256)))
/// ```
public final class CodersManager: ImageCoding, Sendable {
    private let state: Mutex<[any ImageCoding]>

    /// A manager over `coders`, the last one having the highest priority.
    public init(coders: [any ImageCoding] = []) {
        state = Mutex(coders)
    }

    /// The registered coders, lowest priority first.
    public var coders: [any ImageCoding] { state.withLock { $0 } }

    /// Registers a coder with the highest priority.
    public func addCoder(_ coder: any ImageCoding) {
        state.withLock { $0.append(coder) }
    }

    /// Unregisters a coder (by identity).
    public func removeCoder(_ coder: any ImageCoding) {
        state.withLock { $0.removeAll { $0 === coder } }
    }

    /// The highest-priority coder that can decode these bytes.
    public func decoder(for data: Data) -> (any ImageCoding)? {
        coders.reversed().first { $0.canDecode(data) }
    }

    public func canDecode(_ data: Data) -> Bool { decoder(for: data) != nil }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let coder = decoder(for: data) else {
            var format = ImageFormat(sniffing: data)
            if format == .undefined, let hint = options.typeHint { format = hint }
            throw WebImageError.badImageData(.unsupportedFormat(format))
        }
        return try WorkCancellation.checking { try coder.decode(data, options: options) }.recordingDecodeOptions(options)
    }

    /// The header of `data`, from the coder that reads it: without decoding pixels when that coder is an
    /// ``ImageHeaderReading`` (every built-in one), else by decoding it at full size.
    public func header(for data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let coder = decoder(for: data) else {
            throw WebImageError.badImageData(.unsupportedFormat(ImageFormat(sniffing: data)))
        }
        if let reader = coder as? any ImageHeaderReading { return try reader.header(data) }
        let image = try coder.decode(data, options: ImageDecodeOptions())
        return ImageHeader(format: image.format, pixelSize: image.pixelSize, orientation: image.orientation,
                           frameCount: image.frameCount, hasAlpha: image.hasAlpha,
                           bitDepth: image.pixels.format == .rgba16 ? 16 : 8, hasColorDescription: image.iccProfile != nil)
    }

    /// Decodes with the coder that reads these bytes, writing into `buffer` where that coder can (see
    /// ``ImageDecoding/decode(_:reusing:options:)``).
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let coder = decoder(for: data) else { return try decode(data, options: options) }
        return try WorkCancellation.checking { try coder.decode(data, reusing: &buffer, options: options) }
            .recordingDecodeOptions(options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { encoder(for: format) != nil }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard let coder = encoder(for: format) else {
            throw WebImageError.encodingFailed(format: format, reason: "no registered coder encodes this format")
        }
        return try WorkCancellation.checking { try coder.encode(image, as: format, options: options) }
    }

    private func encoder(for format: ImageFormat) -> (any ImageCoding)? {
        coders.reversed().first { $0.canEncode(to: format) }
    }

    /// A progressive decoder for a download whose first bytes are `data`, or nil if no coder decodes them
    /// incrementally.
    public func progressiveDecoder(for data: Data, options: ImageDecodeOptions) -> (any ProgressiveImageDecoder)? {
        for case let coder as any ProgressiveImageCoding in coders.reversed() where coder.canDecodeIncrementally(data) {
            return coder.makeProgressiveDecoder(options: options)
        }
        return nil
    }

    /// A lazy frame decoder for these bytes, or nil if no animated coder reads them.
    public func animatedDecoder(for data: Data, options: ImageDecodeOptions) throws -> (any AnimatedImageDecoder)? {
        for case let coder as any AnimatedImageCoding in coders.reversed() where coder.canDecode(data) {
            return try coder.makeAnimatedDecoder(data, options: options)
        }
        return nil
    }
}
