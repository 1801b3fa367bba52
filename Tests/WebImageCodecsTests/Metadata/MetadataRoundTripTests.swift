import Foundation
import Testing
import TestSupport
import WebImage

/// Every format that stores metadata gives back what it was written with: EXIF and XMP (and IPTC for JPEG)
/// survive encode → decode with ``ImageDecodeOptions/readsMetadata``, byte for byte; a decode without the flag
/// reads none, and GIF writes none.
@Suite struct MetadataRoundTripTests {
    static let full = ImageMetadata(exif: MetadataSamples.exif(), xmp: MetadataSamples.xmp, iptc: MetadataSamples.iptc)

    static func source(_ metadata: ImageMetadata? = full, orientation: ImageOrientation = .up) -> Image {
        var bytes: [UInt8] = []
        for y in 0..<24 {
            for x in 0..<32 { bytes += [UInt8(x * 8), UInt8(y * 10), 120, 255] }
        }
        let pixels = PixelBuffer(width: 32, height: 24, format: .rgba8, bytes: bytes)
        return Image(frames: [ImageFrame(pixels: pixels)], orientation: orientation, metadata: metadata)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .avif, .heic, .jxl])
    func metadataSurvivesARoundTrip(format: ImageFormat) throws {
        let encoded = try CodersManager.shared.encode(Self.source(), as: format, options: .init(quality: 0.8, effort: .fastest))
        let decoded = try CodersManager.shared.decode(encoded, options: .init(readsMetadata: true))
        #expect(decoded.metadata?.exif == MetadataSamples.exif())
        #expect(decoded.metadata?.xmp == MetadataSamples.xmp)
        // IPTC has a place only in JPEG (Photoshop's APP13).
        #expect(decoded.metadata?.iptc == (format == .jpeg ? MetadataSamples.iptc : nil))

        let plain = try CodersManager.shared.decode(encoded, options: .init())
        #expect(plain.metadata == nil)
    }

    /// The EXIF orientation written is the image's: an encoder never contradicts the pixels it stores.
    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func theEXIFOrientationFollowsTheImage(format: ImageFormat) throws {
        let image = Self.source(ImageMetadata(exif: MetadataSamples.exif(orientation: 8)), orientation: .right)
        let encoded = try CodersManager.shared.encode(image, as: format, options: .init())
        let decoded = try CodersManager.shared.decode(encoded, options: .init(readsMetadata: true))
        #expect(decoded.metadata?.exif == MetadataSamples.exif(orientation: 6))
    }

    @Test func gifCarriesNone() throws {
        let encoded = try CodersManager.shared.encode(Self.source(), as: .gif, options: .init())
        #expect(try CodersManager.shared.decode(encoded, options: .init(readsMetadata: true)).metadata == nil)
    }

    /// An unreadable EXIF structure is left out of the decoded image (the XMP beside it is kept), never a
    /// failure.
    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func unreadableEXIFIsLeftOut(format: ImageFormat) throws {
        let hostile = Data([0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0] + [UInt8](repeating: 0xAB, count: 40))
        let encoded = try CodersManager.shared.encode(Self.source(ImageMetadata(exif: hostile, xmp: MetadataSamples.xmp)),
                                                      as: format, options: .init())
        let decoded = try CodersManager.shared.decode(encoded, options: .init(readsMetadata: true))
        #expect(decoded.metadata == ImageMetadata(xmp: MetadataSamples.xmp))
    }
}
