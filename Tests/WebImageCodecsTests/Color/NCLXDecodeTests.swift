import CLCMS2
import Foundation
import TestSupport
import Testing
import WebImage

/// AVIF and HEIF files whose colour is given by `nclx` code points decode like files that embed the equivalent
/// ICC profile: converted to sRGB by default, kept with a synthesized profile attached under `.preserve`, and
/// left alone when the code points say sRGB.
///
/// Tolerance: 2 per 8-bit channel, the issue's, against colours computed independently (Pillow's ImageCms for
/// Display P3; a Python implementation of H.273 — matrices from the primaries, the transfer formulas, sRGB
/// encoding with clipping — for the others, which gives Pillow's values exactly for Display P3). The fixtures are
/// lossless with the identity matrix, so no codec error adds to it.
@Suite struct NCLXDecodeTests {
    enum Container: CaseIterable, CustomStringConvertible {
        case avif, heif

        var description: String { self == .avif ? "AVIF" : "HEIF" }

        func make(_ pixels: PixelBuffer, primaries: Int, transfer: Int, depth: Int = 8,
                  iccProfile: Data? = nil) throws -> Data {
            switch self {
            case .avif: try NCLXFixtures.avif(pixels, primaries: primaries, transfer: transfer, depth: depth,
                                              iccProfile: iccProfile)
            case .heif: try NCLXFixtures.heif(pixels, primaries: primaries, transfer: transfer, depth: depth,
                                              iccProfile: iccProfile)
            }
        }
    }

    static let raster = PixelBuffer(width: 12, height: 1, bytes: TestProfiles.raster)

    /// ``TestProfiles/colors`` in BT.2020 with a 2.2 power curve (nclx 9/4), in sRGB (Python, see above).
    static let bt2020Gamma22ToSRGB: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0],
                                                [129, 129, 129], [243, 75, 21], [0, 191, 226], [255, 240, 0],
                                                [104, 0, 169], [0, 213, 66], [255, 103, 206]]

    /// Greys as 10-bit HLG in BT.2020 (nclx 9/18), in sRGB: 1000 cd/m² OOTF, 203 cd/m² as white (Python).
    static let hlgGreys: [UInt8] = [0, 32, 64, 96, 128, 160, 191, 224, 255]
    static let hlgGreysToSRGB: [UInt8] = [0, 24, 62, 100, 138, 185, 254, 255, 255]

    private func expectClose(_ image: Image, to expected: [[UInt8]], _ label: String) {
        for (index, rgb) in expected.enumerated() {
            let pixel = image.pixels.rgba8(x: index, y: 0)
            let difference = zip(pixel.prefix(3), rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(difference <= 2, "\(label) colour \(index): \(pixel) vs \(rgb)")
        }
    }

    @Test(arguments: Container.allCases, [8, 10])
    func displayP3ConvertsLikePillow(container: Container, depth: Int) throws {
        let data = try container.make(Self.raster, primaries: 12, transfer: 13, depth: depth)
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.pixelFormat == (depth > 8 ? .rgba16 : .rgba8))
        #expect(image.iccProfile == nil)
        #expect(image.colorProfileIssue == nil)
        expectClose(image, to: TestProfiles.pillowP3ToSRGB, "\(container) \(depth)-bit")
    }

    @Test(arguments: Container.allCases)
    func bt2020WithGamma22Converts(container: Container) throws {
        let data = try container.make(Self.raster, primaries: 9, transfer: 4)
        let image = try CodersManager.shared.decode(data, options: .init())
        expectClose(image, to: Self.bt2020Gamma22ToSRGB, "\(container)")
    }

    /// DCI-P3 (nclx 11) has its own white point (x 0.314, y 0.351); relative colorimetric conversion adapts it,
    /// so white and greys stay neutral.
    @Test func dciP3WhiteStaysWhite() throws {
        let data = try Container.avif.make(Self.raster, primaries: 11, transfer: 13)
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.pixels.rgba8(x: 3, y: 0).prefix(3) == [255, 255, 255])
        #expect(image.pixels.rgba8(x: 5, y: 0).prefix(3).allSatisfy { abs(Int($0) - 128) <= 1 })
    }

    /// `.preserve` keeps the stored samples and attaches a profile that describes Display P3: converting from it
    /// to lcms2's own Display P3 profile changes no colour.
    @Test(arguments: Container.allCases)
    func preserveAttachesTheSynthesizedProfile(container: Container) throws {
        let data = try container.make(Self.raster, primaries: 12, transfer: 13)
        let image = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        for index in 0..<12 {
            #expect(image.pixels.rgba8(x: index, y: 0).prefix(3) == TestProfiles.colors[index].prefix(3))
        }
        let profile = try #require(image.iccProfile)
        #expect(ProfileProbe.description(of: profile) == "P3-D65, sRGB curve (nclx 12/13)")
        #expect(ProfileProbe.largestDifference(from: profile, to: TestProfiles.displayP3) <= 1)
    }

    /// Code points that mean sRGB (BT.709 primaries or unspecified, with the sRGB curve, the BT.709 or BT.601
    /// curve, or unspecified) convert nothing and attach nothing.
    @Test(arguments: Container.allCases, [(1, 13), (2, 2), (1, 1), (1, 6), (2, 13)])
    func sRGBCodePointsConvertNothing(container: Container, codePoints: (Int, Int)) throws {
        let data = try container.make(Self.raster, primaries: codePoints.0, transfer: codePoints.1)
        let converted = try CodersManager.shared.decode(data, options: .init())
        let preserved = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        #expect(converted.pixels == preserved.pixels)
        #expect(converted.iccProfile == nil && preserved.iccProfile == nil)
        for index in 0..<12 {
            #expect(converted.pixels.rgba8(x: index, y: 0).prefix(3) == TestProfiles.colors[index].prefix(3))
        }
    }

    /// With an ICC profile and `nclx` both present the ICC profile is the one applied.
    @Test(arguments: Container.allCases)
    func iccProfileWinsOverNCLX(container: Container) throws {
        let data = try container.make(Self.raster, primaries: 9, transfer: 16, iccProfile: TestProfiles.adobeRGB)
        expectClose(try CodersManager.shared.decode(data, options: .init()), to: TestProfiles.pillowAdobeToSRGB,
                    "\(container)")
        let preserved = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        #expect(preserved.iccProfile == TestProfiles.adobeRGB)
    }

    /// HLG: the BT.2100 OOTF for a 1000 cd/m² display, scaled so that 203 cd/m² (a 75 % signal) is white; 8-bit
    /// and 16-bit storage (the expected values are the 10-bit ones; 8-bit ones differ by at most 1).
    @Test(arguments: Container.allCases, [8, 10])
    func hlgGreysMapToReferenceWhite(container: Container, depth: Int) throws {
        let greys = PixelBuffer(width: Self.hlgGreys.count, height: 1,
                                bytes: Self.hlgGreys.flatMap { [$0, $0, $0, 255] })
        let data = try container.make(greys, primaries: 9, transfer: 18, depth: depth)
        let image = try CodersManager.shared.decode(data, options: .init())
        expectClose(image, to: Self.hlgGreysToSRGB.map { [$0, $0, $0] }, "\(container) \(depth)-bit")
    }

    /// Without a `colr` box libavif takes the code points from the AV1 sequence header (here the box's type is
    /// overwritten, so it is skipped as an unknown property).
    @Test func avifWithoutColrBoxUsesTheSequenceHeader() throws {
        var data = try Container.avif.make(Self.raster, primaries: 12, transfer: 13)
        let box = try #require(data.range(of: Data("colr".utf8)))
        data.replaceSubrange(box, with: Data("abcd".utf8))
        #expect(data.range(of: Data("colr".utf8)) == nil)
        expectClose(try CodersManager.shared.decode(data, options: .init()), to: TestProfiles.pillowP3ToSRGB, "AVIF")
    }

    /// An animated AVIF's frames convert as they are decoded one by one.
    @Test func animatedAVIFFramesConvert() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nclx-anim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var inputs: [String] = []
        for (index, pixels) in [Self.raster, Self.raster.applying(.upMirrored)].enumerated() {
            let url = dir.appendingPathComponent("\(index).png")
            try PNGCoder().encode(Image(pixels: pixels), as: .png, options: .init()).write(to: url)
            inputs.append(url.path)
        }
        let output = dir.appendingPathComponent("out.avif")
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/avifenc"),
                                         ["--lossless", "--cicp", "12/13/0"] + inputs + [output.path])
        process.waitUntilExit()
        #expect(process.termination == .exited(0))
        let decoder = try #require(try CodersManager.shared.animatedDecoder(for: try Data(contentsOf: output),
                                                                          options: .init()))
        #expect(decoder.frameCount == 2)
        let second = try decoder.frame(at: 1)
        for index in 0..<12 {
            let pixel = second.rgba8(x: 11 - index, y: 0)
            let rgb = TestProfiles.pillowP3ToSRGB[index]
            #expect(zip(pixel.prefix(3), rgb).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "colour \(index): \(pixel)")
        }
    }
}

/// Reads synthesized profiles back with lcms2.
enum ProfileProbe {
    /// The profile's `desc` text.
    static func description(of profile: Data) -> String? {
        withProfile(profile) { handle in
            guard let tag = cmsReadTag(handle, cmsSigProfileDescriptionTag) else { return nil }
            let text = OpaquePointer(tag)
            var buffer = [CChar](repeating: 0, count: 256)
            let count = cmsMLUgetASCII(text, "en", "US", &buffer, cmsUInt32Number(buffer.count))
            guard count > 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } ?? nil
    }

    /// The largest 8-bit channel change when a 9 × 9 × 9 grid goes from `source` to `destination`.
    static func largestDifference(from source: Data, to destination: Data) -> Int {
        withProfile(source) { input in
            withProfile(destination) { output -> Int in
                let type: cmsUInt32Number = 4 << 16 | 3 << 3 | 1 // TYPE_RGB_8
                guard let transform = cmsCreateTransform(input, type, output, type, 1, 0) else { return .max }
                defer { cmsDeleteTransform(transform) }
                let levels = (0...8).map { UInt8(min(255, $0 * 32)) }
                let grid = levels.flatMap { r in levels.flatMap { g in levels.flatMap { b in [r, g, b] } } }
                var converted = grid
                cmsDoTransform(transform, grid, &converted, cmsUInt32Number(grid.count / 3))
                return zip(grid, converted).map { abs(Int($0) - Int($1)) }.max() ?? .max
            } ?? .max
        } ?? .max
    }

    private static func withProfile<R>(_ profile: Data, _ body: (cmsHPROFILE) -> R) -> R? {
        guard let handle = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(handle) }
        return body(handle)
    }
}
