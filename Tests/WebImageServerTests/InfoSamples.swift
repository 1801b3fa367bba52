import Foundation
import TestSupport
import WebImage
@testable import WebImageServer

/// The sources the `/info` suites ask about, made here so every expectation follows from their construction.
enum InfoSamples {
    /// A 40 × 30 JPEG whose EXIF says orientation 6, with the camera EXIF, Lightroom XMP and Photoshop IPTC of
    /// ``MetadataSamples``, and an APP13 holding Photoshop's resolution resource (72 per inch wide, 300 per cm high).
    static func photo() throws -> Data {
        let metadata = ImageMetadata(exif: MetadataSamples.exif(orientation: 6), xmp: MetadataSamples.xmp,
                                     iptc: MetadataSamples.iptc)
        let image = Image(frames: [ImageFrame(pixels: Fixtures.pixels(40, 30))], orientation: .right).with(metadata: metadata)
        let jpeg = [UInt8](try Fixtures.encode(image, .jpeg))
        let resolution: [UInt8] = [0x00, 0x48, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x01, 0x2C, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02]
        let body = Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [0x03, 0xED, 0, 0, 0, 0, 0, 16] + resolution
        let segment: [UInt8] = [0xFF, 0xED, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Data(jpeg.prefix(2) + segment + jpeg.dropFirst(2))
    }

    /// A raster from `pixel(x, y)`'s RGBA, as a PNG (lossless: the decoded pixels are these).
    static func png(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height, bytes: (0..<height).flatMap { y in
            (0..<width).flatMap { x in pixel(x, y) }
        })
        return try Fixtures.encode(Image(pixels: pixels), .png)
    }

    /// 32 × 24: red 8x, green 10y, blue xy mod 256 — the hashes' reference image.
    static func gradient() throws -> Data {
        try png(32, 24) { x, y in [UInt8((x * 8) & 255), UInt8((y * 10) & 255), UInt8((x * y) % 256), 255] }
    }

    /// 32 × 32 grey, (7x + 3y + 5 (xy mod 13)) mod 256: pHash's size, so nothing is resampled.
    static func grey() throws -> Data {
        try png(32, 32) { x, y in
            let v = UInt8((x * 7 + y * 3 + ((x * y) % 13) * 5) % 256)
            return [v, v, v, 255]
        }
    }

    /// 20 × 20: the left half transparent red, the right half (10x, 10y, 100) at alpha 128 + 6y.
    static func halfTransparent() throws -> Data {
        try png(20, 20) { x, y in x < 10 ? [255, 0, 0, 0] : [UInt8(x * 10), UInt8(y * 10), 100, UInt8(128 + y * 6)] }
    }

    /// 32 × 32 in four 16 × 16 quadrants: (220, 40, 40), (20, 60, 140), (250, 200, 100), (120, 130, 110).
    static let quadrantColours: [[UInt8]] = [[220, 40, 40, 255], [20, 60, 140, 255], [250, 200, 100, 255], [120, 130, 110, 255]]

    static func quadrants() throws -> Data {
        try png(32, 32) { x, y in quadrantColours[(y / 16) * 2 + x / 16] }
    }

    /// The answer's JSON as a dictionary.
    static func fields(_ answer: ProxyHarness.Answer) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] ?? [:]
    }
}
