import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImageCore

/// CMYK samples (as TurboJPEG gives a CMYK JPEG's) convert to sRGB through a CMYK profile like Pillow's ImageCms
/// does, through ``TestProfiles/adobeCMYK()``.
@Suite struct CMYKConversionTests {
    private static let inks: [[UInt8]] = [[0, 0, 0, 0], [255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0],
                                          [0, 0, 0, 255], [128, 64, 32, 16], [30, 200, 90, 10], [200, 30, 10, 60]]
    /// Pillow 13 (lcms2 2.19), perceptual intent, `CMYK` mode (ink amounts), computed once.
    private static let pillowSRGB: [[UInt8]] = [[255, 255, 255], [0, 174, 239], [236, 0, 140], [255, 242, 0],
                                                [35, 31, 32], [122, 157, 185], [208, 89, 117], [0, 137, 179]]

    @Test(arguments: [false, true])
    func convertsLikePillow(inverted: Bool) throws {
        let profile = try TestProfiles.adobeCMYK()
        var samples = Self.inks.flatMap { $0 }.map { inverted ? 255 - $0 : $0 }
        let result = samples.withUnsafeMutableBytes {
            ColorManagement.convertCMYK($0, pixelCount: Self.inks.count, profile: profile, inverted: inverted)
        }
        #expect((try? result.get()) != nil)
        for (index, rgb) in Self.pillowSRGB.enumerated() {
            let pixel = Array(samples[index * 4 ..< index * 4 + 4])
            #expect(zip(pixel.prefix(3), rgb).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "ink \(index): \(pixel) vs \(rgb)")
            #expect(pixel[3] == 255)
        }
    }
}
