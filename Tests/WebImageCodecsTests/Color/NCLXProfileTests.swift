import CLCMS2
import Foundation
import TestSupport
import Testing
@testable import WebImageCodecs
import WebImage

/// The profiles built from `nclx` code points (and from PNG's `gAMA` + `cHRM`), the HDR transfer functions
/// behind them, and the HDR corpus file.
@Suite struct NCLXProfileTests {
    /// sRGB's (or unspecified, 2) primaries with a curve displayed as sRGB, and code points H.273 reserves or
    /// this table does not know (0, 3, 10 = XYZ, 200; transfer 7 = SMPTE 240M, 255): nothing to convert.
    @Test func sRGBEquivalentsHaveNoProfile() throws {
        for primaries: UInt16 in [0, 1, 2, 3, 10, 200] {
            for transfer: UInt16 in [0, 1, 2, 6, 7, 13, 14, 15, 255] {
                let profile = try NCLXColor(primaries: primaries, transfer: transfer).profile.get()
                #expect(profile == nil, "\(primaries)/\(transfer)")
            }
        }
    }

    /// Every supported pair makes an RGB profile lcms2 reads back, the same bytes every time.
    @Test func everySupportedPairMakesAnRGBProfile() throws {
        let primaries: [UInt16] = [1] + NCLXColor.chromaticities.keys.sorted()
        let transfers: [UInt16] = [13] + NCLXColor.curves.keys.sorted()
        #expect(primaries == [1, 4, 5, 6, 7, 8, 9, 11, 12, 22])
        #expect(transfers == [13, 4, 5, 8, 16, 18])
        for p in primaries {
            for t in transfers where (p, t) != (1, 13) {
                let colour = NCLXColor(primaries: p, transfer: t)
                let profile = try #require(try colour.profile.get(), "\(p)/\(t)")
                #expect(try colour.profile.get() == profile)
                let space = LittleCMS.withProfile(profile) { cmsGetColorSpace($0) }
                #expect(space == cmsSigRgbData, "\(p)/\(t)")
            }
        }
    }

    /// An unknown component falls back to sRGB's alone; the known one still applies.
    @Test func unknownComponentFallsBackToSRGB() throws {
        let p3 = try NCLXColor(primaries: 12, transfer: 13).profile.get()
        let pq = try NCLXColor(primaries: 1, transfer: 16).profile.get()
        #expect(try NCLXColor(primaries: 12, transfer: 255).profile.get() == p3)
        #expect(try NCLXColor(primaries: 255, transfer: 16).profile.get() == pq)
    }

    /// The synthesis is deterministic (no creation date), so the conversion cache recognises a repeat.
    @Test func synthesizedBytesAreStable() throws {
        let space = RGBColorSpace(chromaticities: Chromaticities(white: (0.3127, 0.329), red: (0.7, 0.3),
                                                                 green: (0.2, 0.7), blue: (0.15, 0.05)),
                                  transfer: .gamma(1.8), name: "test")
        let first = try space.iccProfile().get()
        #expect(try space.iccProfile().get() == first)
        #expect(first[24..<36].allSatisfy { $0 == 0 })
    }

    /// PNG's `gAMA` + `cHRM` go through the same synthesis: PngSuite's `ccwn2c08.png` (gamma 1.0, sRGB's
    /// chromaticities) attaches the same bytes on every decode.
    @Test func pngGammaAndChromaticitiesShareTheSynthesis() throws {
        let data = try TestCorpus.data("pngsuite/png/ccwn2c08.png")
        let preserve = ImageDecodeOptions(colorSpace: .preserve)
        let first = try #require(try CodersManager.shared.decode(data, options: preserve).iccProfile)
        let second = try CodersManager.shared.decode(data, options: preserve).iccProfile
        #expect(second == first)
        #expect(ProfileProbe.description(of: first) == "PNG gAMA and cHRM")
    }

    /// SMPTE ST 2084's published levels (signals from its inverse EOTF): 100 cd/m² at 0.508078, 203 at
    /// 0.580689 (BT.2408's 58 %), 1000 at 0.751827; 203 cd/m² is 1.0 and brighter clips.
    @Test func pqMapsReferenceWhiteToOne() {
        #expect(abs(HDRToSDR.pq(0.508078) * 203 - 100) < 0.01)
        #expect(abs(HDRToSDR.pq(0.580600) - 0.99915) < 0.0001)
        #expect(HDRToSDR.pq(0.580700) == 1)
        #expect(HDRToSDR.pq(0.751827) == 1)
        #expect(HDRToSDR.pq(0) == 0)
        let samples = (0...1000).map { HDRToSDR.pq(Double($0) / 1000) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// HLG: a 50 % signal is scene light 1/12, shown at 1000 × (1/12)^1.2 = 50.70 cd/m²; 74 % gives 0.94159
    /// (Python, same formulas); 75 % reaches 203 cd/m² and is white.
    @Test func hlgMapsSeventyFivePercentToWhite() {
        #expect(abs(HDRToSDR.hlg(0.5) * 203 - 50.697) < 0.01)
        #expect(HDRToSDR.hlg(0.75) == 1)
        #expect(abs(HDRToSDR.hlg(0.74) - 0.94159) < 0.0001)
        #expect(HDRToSDR.hlg(0) == 0)
    }

    /// `colors_hdr_p3.avif` (P3-D65, PQ, 10-bit) at patches of its gradient: the stored 16-bit samples (as
    /// `avifdec -d 16` writes them) through the PQ curve, 203 cd/m² as white, P3 → sRGB, computed in Python. The
    /// light bottom rows are brighter than reference white and come out white.
    @Test func hdrCorpusFileMapsLikeTheFormulas() throws {
        let data = try TestCorpus.data("avif/colors_hdr_p3.avif")
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.pixelFormat == .rgba16)
        #expect(image.iccProfile == nil && image.colorProfileIssue == nil)
        let expected: [(x: Int, y: Int, rgb: [UInt8])] = [
            (0, 0, [255, 57, 37]), (40, 0, [255, 74, 25]), (100, 0, [232, 191, 0]), (160, 0, [163, 255, 61]),
            (199, 0, [166, 255, 88]), (100, 60, [231, 191, 0]), (30, 110, [255, 110, 73]), (100, 110, [254, 222, 64]),
            (0, 199, [255, 255, 255]), (100, 199, [255, 255, 255]), (199, 199, [255, 255, 255]),
        ]
        for patch in expected {
            let pixel = image.pixels.rgba8(x: patch.x, y: patch.y)
            let difference = zip(pixel.prefix(3), patch.rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(difference <= 2, "(\(patch.x), \(patch.y)): \(pixel) vs \(patch.rgb)")
        }
        let preserved = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        let profile = try #require(preserved.iccProfile)
        #expect(ProfileProbe.description(of: profile) == "P3-D65, PQ with 203 cd/m2 as white (nclx 12/16)")
    }
}
