import Dispatch
import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImageCore

/// Large single-scan JPEGs with a profile to convert decode in bands, the conversion overlapping the decode:
/// the pixels and errors are exactly those of decoding whole and converting afterwards.
@Suite struct JPEGBandedDecodeTests {
    /// 1,100 × 1,000: over the one-megapixel threshold, and not a whole number of 64-row bands.
    private static func taggedJPEG(_ profile: Data) throws -> Data {
        let image = Image(frames: [ImageFrame(pixels: JPEGTestSupport.smoothImage(width: 1100, height: 1000))],
                          hasAlpha: false, iccProfile: profile)
        return try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
    }

    @Test(arguments: [("Display P3", TestProfiles.displayP3), ("Adobe RGB", TestProfiles.adobeRGB)])
    func bandsGiveTheWholeDecodeConvertedAfterwards(name: String, profile: Data) throws {
        let data = try Self.taggedJPEG(profile)
        let banded = try JPEGCoder().decode(data, options: ImageDecodeOptions())
        let stored = try JPEGCoder().decode(data, options: ImageDecodeOptions(colorSpace: .preserve))
        #expect(stored.iccProfile == profile)
        var expected = stored.pixels
        let outcome = ColorManagement.manage(&expected, profile: [UInt8](profile), options: ImageDecodeOptions())
        #expect(outcome.issue == nil)
        #expect(banded.iccProfile == nil && banded.colorProfileIssue == nil, "\(name)")
        #expect(banded.pixels.width == 1100 && banded.pixels.height == 1000)
        #expect(banded.pixels == expected, "\(name)")
        #expect(banded.pixels != stored.pixels, "\(name): the conversion changed the pixels")
    }

    /// With no worker thread ever free (a suspended queue), the decoding thread converts every band itself.
    @Test func bandsNeedNoFreeThread() throws {
        let data = try Self.taggedJPEG(TestProfiles.displayP3)
        let expected = try JPEGCoder().decode(data, options: ImageDecodeOptions()).pixels
        let conversion = try ColorConversionCache.shared
            .conversion(for: [UInt8](TestProfiles.displayP3), layout: .rgba(.rgba8)).get()
        let workers = DispatchQueue(label: "JPEGBandedDecodeTests.stalled")
        workers.suspend()
        defer { workers.resume() }
        var store = RasterStore.fresh
        let pixels = try data.withUnsafeBytes { raw in
            try JPEGBandedDecoding.decode(raw, scaling: .none, conversion: conversion, store: &store, workers: workers)
        }
        #expect(pixels == expected)
    }

    @Test func aTruncatedFileIsReportedAsTruncated() throws {
        let data = try Self.taggedJPEG(TestProfiles.displayP3)
        let cut = data.prefix(data.count * 6 / 10)
        for options in [ImageDecodeOptions(), ImageDecodeOptions(colorSpace: .preserve)] {
            let error = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(cut, options: options) }
            #expect(error.map { if case .badImageData(.truncated) = $0 { true } else { false } } == true,
                    "\(options.colorSpace): \(String(describing: error))")
        }
    }

    /// A progressive file is left to the whole-image decode (its rows are redrawn scan after scan).
    @Test func multiScanFilesAreNotBanded() throws {
        let data = try JPEGTestSupport.fixture("progressive-512.jpg")
        var store = RasterStore.fresh
        let conversion = try ColorConversionCache(capacity: 1)
            .conversion(for: [UInt8](TestProfiles.displayP3), layout: .rgba(.rgba8)).get()
        let pixels = try data.withUnsafeBytes { raw in
            try JPEGBandedDecoding.decode(raw, scaling: .none, conversion: conversion, store: &store)
        }
        #expect(pixels == nil)
    }
}
