import Foundation
import Testing
import WebImage

/// Shared makers and measures for the JPEG tests.
enum JPEGTestSupport {
    /// A smooth opaque test picture: red/green gradients, a blue wave, a yellow disc and a dark-blue bar.
    static func smoothImage(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            let cx = Double(width) / 2, cy = Double(height) / 2, radius = Double(min(width, height)) / 5
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let dx = Double(x) - cx, dy = Double(y) - cy
                    if dx * dx + dy * dy < radius * radius {
                        out[i] = 240; out[i + 1] = 200; out[i + 2] = 40
                    } else if x > width / 10 && x < width / 4 && y > height * 6 / 10 && y < height * 9 / 10 {
                        out[i] = 20; out[i + 1] = 40; out[i + 2] = 160
                    } else {
                        out[i] = UInt8(x * 255 / max(1, width - 1))
                        out[i + 1] = UInt8(y * 255 / max(1, height - 1))
                        out[i + 2] = UInt8(128 + 100 * sin(Double(x) / 40) * cos(Double(y) / 50))
                    }
                    out[i + 3] = 255
                }
            }
        }
    }

    /// A baseline JPEG of ``smoothImage(width:height:)`` made by our own encoder.
    static func baselineJPEG(width: Int, height: Int, quality: Double = 0.9) throws -> Data {
        let image = Image(pixels: smoothImage(width: width, height: height), hasAlpha: false)
        return try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions(quality: quality))
    }

    static func fixture(_ name: String) throws -> Data {
        try TestPaths.data(TestPaths.fixture("jpeg", name))
    }

    /// FNV-1a (64-bit) of the RGB samples, skipping alpha: the same sum the fixtures' expected values were
    /// computed with over `djpeg -pnm` output.
    static func rgbChecksum(_ pixels: PixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        pixels.withUnsafeBytes { raw in
            for (index, byte) in raw.enumerated() where index % 4 != 3 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return hash
    }

    /// Peak signal-to-noise ratio of the RGB samples in decibels.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var squared = 0.0, count = 0.0
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                for index in 0..<min(x.count, y.count) where index % 4 != 3 {
                    let d = Double(x[index]) - Double(y[index])
                    squared += d * d
                    count += 1
                }
            }
        }
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / count))
    }

    /// `jpeg` with an EXIF APP1 segment holding `orientation` inserted after SOI, in either byte order.
    static func withEXIFOrientation(_ jpeg: Data, _ orientation: Int, littleEndian: Bool) -> Data {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        // IFD0 with two entries (an unrelated one first, so the reader has to walk), then no next IFD.
        var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        tiff += u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)  // Make, ASCII, fits in place
        tiff += u16(274) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        var out = jpeg
        out.insert(contentsOf: segment, at: 2)
        return out
    }

    /// The error `body` throws, recorded as an issue when it returns or throws something untyped.
    /// `jpeg` with `profile` in APP2 `ICC_PROFILE` segments right after SOI, split as the ICC spec says.
    static func withICCProfile(_ jpeg: Data, _ profile: [UInt8]) -> Data {
        let chunks = stride(from: 0, to: profile.count, by: 65_519).map { Array(profile[$0 ..< min(profile.count, $0 + 65_519)]) }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE\u{0}".utf8)
            segments += [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        return jpeg.prefix(2) + Data(segments) + jpeg.dropFirst(2)
    }

    static func webImageError(_ body: () throws -> Void) -> WebImageError? {
        do {
            try body()
            Issue.record("expected an error")
        } catch let error as WebImageError {
            return error
        } catch {
            Issue.record("untyped error \(error)")
        }
        return nil
    }
}
