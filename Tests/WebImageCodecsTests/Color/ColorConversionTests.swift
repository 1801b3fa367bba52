import Foundation
import Testing
import TestSupport
import WebImage

/// Decoding with the default `.sRGB` colour space converts pixels carrying a profile like an independent
/// conversion (Pillow's ImageCms) does, and `.preserve` keeps pixels and profile as they were.
@Suite struct ColorConversionTests {
    private static let tagged: [(name: String, profile: Data, expected: [[UInt8]])] = [
        ("Display P3", TestProfiles.displayP3, TestProfiles.pillowP3ToSRGB),
        ("Adobe RGB", TestProfiles.adobeRGB, TestProfiles.pillowAdobeToSRGB),
    ]

    /// Lossless encoders that carry a profile, so the decoded pixels are exactly the tagged test colours.
    private static let losslessFormats: [(ImageFormat, ImageEncodeOptions)] = [
        (.png, .init()), (.webp, .init(lossless: true)), (.jxl, .init(lossless: true)),
        (.avif, .init(lossless: true)), (.heic, .init(lossless: true)),
    ]

    private func taggedImage(_ profile: Data) -> Image {
        Image(frames: [ImageFrame(pixels: PixelBuffer(width: 12, height: 1, bytes: TestProfiles.raster))],
              iccProfile: profile)
    }

    @Test(arguments: [0, 1])
    func convertsToSRGBLikePillow(profileIndex: Int) throws {
        let (name, profile, expected) = Self.tagged[profileIndex]
        for (format, options) in Self.losslessFormats {
            let data = try CodersManager.shared.encode(taggedImage(profile), as: format, options: options)
            let image = try CodersManager.shared.decode(data, options: .init())
            #expect(image.iccProfile == nil, "\(name) \(format)")
            #expect(image.colorProfileIssue == nil, "\(name) \(format)")
            for (index, rgb) in expected.enumerated() {
                let pixel = image.pixels.rgba8(x: index, y: 0)
                let difference = zip(pixel.prefix(3), rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(difference <= 2, "\(name) \(format) colour \(index): \(pixel) vs Pillow's \(rgb)")
                #expect(pixel[3] == TestProfiles.raster[index * 4 + 3], "alpha untouched")
            }
        }
    }

    /// 16-bit samples convert through the 16-bit transform to the same colours.
    @Test func sixteenBitPixelsConvertToo() throws {
        let wide = PixelBuffer(width: 12, height: 1, bytes: TestProfiles.raster).converted(to: .rgba16)
        let image = Image(frames: [ImageFrame(pixels: wide)], iccProfile: TestProfiles.displayP3)
        let data = try JXLCoder().encode(image, as: .jxl, options: .init(lossless: true))
        let decoded = try JXLCoder().decode(data, options: .init())
        #expect(decoded.pixelFormat == .rgba16)
        for (index, rgb) in TestProfiles.pillowP3ToSRGB.enumerated() {
            let pixel = decoded.pixels.rgba8(x: index, y: 0)
            #expect(zip(pixel.prefix(3), rgb).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "colour \(index): \(pixel)")
        }
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .jxl, .avif, .heic])
    func preserveRoundTripsTheProfileBytes(format: ImageFormat) throws {
        for profile in [TestProfiles.displayP3, TestProfiles.adobeRGB] {
            let options = ImageEncodeOptions(lossless: format != .jpeg)
            let data = try CodersManager.shared.encode(taggedImage(profile), as: format, options: options)
            let image = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
            #expect(image.iccProfile == profile, "\(format)")
            #expect(image.colorProfileIssue == nil)
            if format != .jpeg { #expect(image.pixels.bytes == TestProfiles.raster, "\(format) pixels as stored") }
        }
    }

    /// A profile lcms2 cannot read leaves the pixels as stored and says why on the image.
    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func brokenProfileDecodesUnconverted(format: ImageFormat) throws {
        let broken = Data("not an ICC profile, just text that claims to be one".utf8)
        let plain = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 12, height: 1, bytes: TestProfiles.raster)),
                                                    as: format, options: .init(lossless: true))
        let tagged = try CodersManager.shared.encode(taggedImage(broken), as: format, options: .init(lossless: true))
        let expected = try CodersManager.shared.decode(plain, options: .init())
        let image = try CodersManager.shared.decode(tagged, options: .init())
        #expect(image.pixels == expected.pixels)
        #expect(image.colorProfileIssue?.contains("ICC profile") == true)
        #expect(image.iccProfile == nil)
    }

    /// An sRGB profile (here lcms2's own) is recognised and converts nothing.
    @Test func sRGBProfileLeavesPixelsAlone() throws {
        let data = try CodersManager.shared.encode(taggedImage(TestProfiles.sRGB), as: .png, options: .init())
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.pixels.bytes == TestProfiles.raster)
        #expect(image.colorProfileIssue == nil)
    }

    /// Concurrent decodes sharing one cached conversion all give the same pixels.
    @Test func concurrentDecodesShareTheConversion() async throws {
        let data = try CodersManager.shared.encode(taggedImage(TestProfiles.adobeRGB), as: .png, options: .init())
        let first = try CodersManager.shared.decode(data, options: .init())
        let results = try await withThrowingTaskGroup(of: PixelBuffer.self) { group in
            for _ in 0..<16 { group.addTask { try CodersManager.shared.decode(data, options: .init()).pixels } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == first.pixels })
    }
}
