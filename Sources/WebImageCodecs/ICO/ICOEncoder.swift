import Foundation
import WebImageCore

/// Writes an icon as imgproxy does: one PNG entry (through ``PNGEncoder``) in a one-entry ICO directory. The
/// orientation is applied to the pixels; an image larger than ``ImageFormat/maxSide`` (256) pixels a side is
/// refused (the directory cannot state a larger size) rather than scaled unasked: the caller shrinks it first,
/// with ``ImageEncodeOptions/maxPixelSize`` or `Image.fitted(to: .ico)` (what the service and the command line do).
enum ICOEncoder {
    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let pixels = options.frames(of: image, firstOnly: true)[0].pixels.applying(image.orientation)
        if let side = ImageFormat.ico.maxSide, max(pixels.width, pixels.height) > side {
            throw WebImageError.encodingFailed(format: .ico, reason:
                "an icon holds at most \(side)x\(side) pixels; this image is \(pixels.width)x\(pixels.height)")
        }
        let still = Image(frames: [ImageFrame(pixels: pixels)], hasAlpha: image.hasAlpha, iccProfile: image.iccProfile)
        var unlimited = options
        unlimited.maxPixelSize = nil
        unlimited.firstFrameOnly = true
        let png = try PNGEncoder.encode(still, options: unlimited)
        var out: [UInt8] = [0, 0, 1, 0, 1, 0]
        let offset = ICODirectory.headerSize + ICODirectory.entrySize
        out += [UInt8(pixels.width & 0xFF), UInt8(pixels.height & 0xFF), 0, 0]  // 256 is written as 0
        out += [1, 0, 32, 0]                                                      // planes, bits a pixel
        for value in [UInt32(png.count), UInt32(offset)] {
            out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        }
        return Data(out) + png
    }
}
