import Foundation
import WebImageCore

/// Writes bottom-up BMPs: 24-bit BGR with a BITMAPINFOHEADER when the image is opaque, 32-bit BGRA with a V4
/// header and an alpha bitfield when it is not; a V5 header instead when the image carries an ICC profile,
/// embedded after the pixels. The orientation is applied to the pixels (BMP has no tag for it). Lossless, so
/// `quality` and `maxFileSize` do not apply; only the first frame is written.
enum BMPEncoder {
    private static let infoHeaderSize = 40, v4HeaderSize = 108, v5HeaderSize = 124

    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let pixels = options.frames(of: image, firstOnly: true)[0].pixels.converted(to: .rgba8).applying(image.orientation)
        let alpha = image.hasAlpha && pixels.containsTransparency
        let profile = image.iccProfile.flatMap { $0.isEmpty ? nil : [UInt8]($0) }
        let headerSize = profile != nil ? v5HeaderSize : alpha ? v4HeaderSize : infoHeaderSize
        let bytesPerPixel = alpha ? 4 : 3
        let stride = (pixels.width * bytesPerPixel + 3) & ~3
        let (imageSize, overflow) = stride.multipliedReportingOverflow(by: pixels.height)
        let pixelOffset = BMPHeader.fileHeaderSize + headerSize
        let fileSize = pixelOffset + imageSize + (profile?.count ?? 0)
        guard !overflow, fileSize <= Int(UInt32.max), pixels.width <= Int(Int32.max), pixels.height <= Int(Int32.max) else {
            throw WebImageError.encodingFailed(format: .bmp, reason: "a BMP holds at most 4 GB")
        }
        var out = [UInt8]()
        out.reserveCapacity(fileSize)
        func u16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
        out += [0x42, 0x4D]
        u32(UInt32(fileSize)); u32(0); u32(UInt32(pixelOffset))
        u32(UInt32(headerSize)); u32(UInt32(pixels.width)); u32(UInt32(pixels.height))
        u16(1); u16(bytesPerPixel * 8)
        u32(alpha ? 3 : 0)                            // BI_BITFIELDS with the masks below, or BI_RGB
        u32(UInt32(imageSize)); u32(2835); u32(2835)  // 72 dpi
        u32(0); u32(0)
        if headerSize > infoHeaderSize {
            if alpha { [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000].forEach { u32($0) } } else { (0..<4).forEach { _ in u32(0) } }
            u32(profile != nil ? 0x4D42_4544 : 0x7352_4742)  // 'MBED' or 'sRGB'
            out += [UInt8](repeating: 0, count: 36 + 12)     // endpoints and gamma: unused for both
            if headerSize == v5HeaderSize {
                u32(4)                                        // LCS_GM_IMAGES (perceptual)
                u32(UInt32(headerSize + imageSize)); u32(UInt32(profile!.count)); u32(0)
            }
        }
        out += rows(pixels, alpha: alpha, stride: stride)
        if let profile { out += profile }
        return Data(out)
    }

    /// The rows bottom to top as BGR or BGRA, each padded to `stride` bytes.
    private static func rows(_ pixels: PixelBuffer, alpha: Bool, stride: Int) -> [UInt8] {
        let count = stride * pixels.height
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            out.initialize(repeating: 0)
            pixels.withUnsafeBytes { source in
                for y in 0..<pixels.height {
                    let input = y * pixels.width * 4
                    let output = (pixels.height - 1 - y) * stride
                    for x in 0..<pixels.width {
                        let s = input + x * 4
                        if alpha {
                            let o = output + x * 4
                            out[o] = source[s + 2]; out[o + 1] = source[s + 1]; out[o + 2] = source[s]; out[o + 3] = source[s + 3]
                        } else {
                            let o = output + x * 3
                            out[o] = source[s + 2]; out[o + 1] = source[s + 1]; out[o + 2] = source[s]
                        }
                    }
                }
            }
            initialized = count
        }
    }
}
