import CTIFF
import Foundation
import Testing
import TestSupport
import WebImage

/// Layouts the corpus lacks, written by libtiff itself: 16-bit RGBA in tiles over several pages, CMYK, grey with
/// alpha, orientation and an ICC profile.
@Suite struct TIFFLayoutTests {
    static let width = 37, height = 29

    /// A page of 16-bit RGBA with unassociated alpha, in 16x16 tiles.
    static func rgba16Page(seed: Int) -> LibTIFFReference.Page {
        LibTIFFReference.Page(width: width, height: height,
                              samples: LibTIFFReference.pattern(count: width * height * 4, limit: 65536, seed: seed),
                              samplesPerPixel: 4, bitsPerSample: 16, extraSample: EXTRASAMPLE_UNASSALPHA, tile: 16)
    }

    @Test func sixteenBitTiledPagesAreFramesKeptAt16Bits() throws {
        let pages = (0..<3).map(Self.rgba16Page)
        let data = try LibTIFFReference.write(pages)
        let image = try TIFFCoder().decode(data, options: .init())
        #expect(image.frameCount == 3 && image.pixelFormat == .rgba16 && image.hasAlpha)
        for (frame, page) in zip(image.frames, pages) {
            let samples = frame.pixels.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            #expect(samples == page.samples)
        }
        let header = try TIFFCoder().header(data)
        #expect(header.frameCount == 3 && header.bitDepth == 16 && header.hasAlpha && header.pixelSize == image.pixelSize)
        let first = try TIFFCoder().decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1 && first.pixels == image.frames[0].pixels)
    }

    @Test func pageLimitsAreCheckedBeforeDecoding() throws {
        let data = try LibTIFFReference.write((0..<3).map(Self.rgba16Page))
        #expect(badImageDataDescription { _ = try TIFFCoder().decode(data, options: .init(maxFrameCount: 2)) }
                == BadImageDataReason.tooManyFrames(limit: 2).description)
        #expect(badImageDataDescription { _ = try TIFFCoder().decode(data, options: .init(maxPixelCount: 1000)) }
                == BadImageDataReason.tooManyPixels(width: Self.width, height: Self.height, limit: 1000).description)
    }

    @Test func greyWithAlphaAndEightBitRGBMatchTheirSamples() throws {
        let grey = LibTIFFReference.pattern(count: Self.width * Self.height * 2, limit: 256)
        let page = LibTIFFReference.Page(width: Self.width, height: Self.height, samples: grey, samplesPerPixel: 2,
                                         photometric: PHOTOMETRIC_MINISBLACK, extraSample: EXTRASAMPLE_UNASSALPHA)
        let image = try TIFFCoder().decode(try LibTIFFReference.write([page]), options: .init())
        #expect(image.pixelFormat == .rgba8 && image.hasAlpha)
        var expected: [UInt8] = []
        for i in stride(from: 0, to: grey.count, by: 2) {
            let value = UInt8(grey[i])
            expected += [value, value, value, UInt8(grey[i + 1])]
        }
        #expect(image.pixels.bytes == expected)
    }

    @Test func cmykWithoutProfileMatchesLibTIFFsConversion() throws {
        let page = LibTIFFReference.Page(width: Self.width, height: Self.height,
                                         samples: LibTIFFReference.pattern(count: Self.width * Self.height * 4, limit: 256),
                                         samplesPerPixel: 4, photometric: PHOTOMETRIC_SEPARATED, tile: 16)
        let data = try LibTIFFReference.write([page])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-\(UUID().uuidString).tif")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        let reference = try #require(LibTIFFReference.rgba(path: url.path))
        let image = try TIFFCoder().decode(data, options: .init())
        #expect(!image.hasAlpha && image.pixels.bytes == reference.bytes)
    }

    @Test func orientationIsReportedAndApplied() throws {
        let samples = LibTIFFReference.pattern(count: Self.width * Self.height * 3, limit: 256)
        for orientation in ImageOrientation.allCases {
            let page = LibTIFFReference.Page(width: Self.width, height: Self.height, samples: samples, samplesPerPixel: 3,
                                             orientation: Int32(orientation.rawValue))
            let data = try LibTIFFReference.write([page])
            let stored = try TIFFCoder().decode(data, options: .init())
            #expect(stored.orientation == orientation)
            var expected: [UInt8] = []
            for i in stride(from: 0, to: samples.count, by: 3) {
                expected += [UInt8(samples[i]), UInt8(samples[i + 1]), UInt8(samples[i + 2]), 255]
            }
            #expect(stored.pixels.bytes == expected)
            let upright = try TIFFCoder().decode(data, options: .init(applyOrientation: true))
            #expect(upright.orientation == .up && upright.pixels == stored.pixels.applying(orientation))
            #expect(try TIFFCoder().header(data).orientation == orientation)
        }
    }

    @Test func iccProfileIsConvertedOrKept() throws {
        let samples = LibTIFFReference.pattern(count: Self.width * Self.height * 3, limit: 256)
        let profile = [UInt8](TestProfiles.adobeRGB)
        let page = LibTIFFReference.Page(width: Self.width, height: Self.height, samples: samples, samplesPerPixel: 3,
                                         iccProfile: profile)
        let data = try LibTIFFReference.write([page])
        let kept = try TIFFCoder().decode(data, options: .init(colorSpace: .preserve))
        #expect(kept.iccProfile == Data(profile) && kept.colorProfileIssue == nil)
        let converted = try TIFFCoder().decode(data, options: .init())
        #expect(converted.iccProfile == nil && converted.colorProfileIssue == nil)
        #expect(converted.pixels != kept.pixels)
        #expect(try TIFFCoder().header(data).hasColorDescription)
    }
}
