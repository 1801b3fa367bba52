import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageCodecs

/// ``ImageEncodeOptions/dpi``: JPEG's JFIF densities and PNG's `pHYs`, read back at their offsets, for every PNG
/// writer; without it the files are as before; either way the pixels are the same.
struct EncodeDPITests {
    private static let image = Image(pixels: PixelBuffer(width: 21, height: 13) { out in
        for i in out.indices { out[i] = i % 4 == 3 ? 255 : UInt8((i * 37) % 251) }
    })

    private static func pixels(_ data: Data) throws -> PixelBuffer {
        try CodersManager.shared.decode(data, options: ImageDecodeOptions()).pixels.converted(to: .rgba8)
    }

    /// JFIF's fields after SOI: APP0 marker, length, identifier, version, units, X and Y density.
    private static func jfif(_ jpeg: Data) -> (header: [UInt8], units: UInt8, x: Int, y: Int) {
        let bytes = [UInt8](jpeg.prefix(18))
        return (Array(bytes[0 ..< 13]), bytes[13], Int(bytes[14]) << 8 | Int(bytes[15]), Int(bytes[16]) << 8 | Int(bytes[17]))
    }

    private static let jfifHeader: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01]

    @Test func jpegDensityIsInTheJFIFSegment() throws {
        let plain = try CodersManager.shared.encode(Self.image, as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
        let marked = try CodersManager.shared.encode(Self.image, as: .jpeg, options: ImageEncodeOptions(quality: 0.8, dpi: 300))
        let (header, units, x, y) = Self.jfif(marked)
        #expect(header == Self.jfifHeader && units == 1 && x == 300 && y == 300)
        let before = Self.jfif(plain)
        #expect(before.header == Self.jfifHeader && before.units == 0 && before.x == 1 && before.y == 1, "TurboJPEG's own")
        // Only those five bytes differ.
        #expect(plain.count == marked.count && Array(plain.dropFirst(18)) == Array(marked.dropFirst(18)))
        #expect(try Self.pixels(marked) == Self.pixels(plain))
    }

    @Test(arguments: [(0.2, 1), (1, 1), (72, 72), (299.5, 300), (96.4, 96), (65535, 65535), (1e9, 65535),
                      (Double.infinity, 65535)])
    func jpegDensityIsRoundedAndClamped(dpi: Double, density: Int) throws {
        let jpeg = try CodersManager.shared.encode(Self.image, as: .jpeg, options: ImageEncodeOptions(dpi: dpi))
        let fields = Self.jfif(jpeg)
        #expect(fields.units == 1 && fields.x == density && fields.y == density)
    }

    @Test func nanIsUnset() {
        #expect(ImageEncodeOptions(dpi: .nan).resolvedDPI == nil && ImageEncodeOptions().resolvedDPI == nil)
    }

    /// EXIF (the orientation) still follows the JFIF segment.
    @Test func jpegMetadataFollowsTheJFIFSegment() throws {
        let turned = Image(pixels: Self.image.pixels, orientation: .right)
        let jpeg = try CodersManager.shared.encode(turned, as: .jpeg, options: ImageEncodeOptions(dpi: 150))
        #expect(Self.jfif(jpeg).units == 1 && Self.jfif(jpeg).x == 150)
        #expect(Array(jpeg[20 ..< 22]) == [0xFF, 0xE1])
        #expect(try CodersManager.shared.decode(jpeg, options: ImageDecodeOptions()).orientation == .right)
    }

    /// A JPEG without a JFIF segment is given one after SOI.
    @Test func jfifIsAddedWhenMissing() throws {
        let plain = try CodersManager.shared.encode(Self.image, as: .jpeg, options: ImageEncodeOptions())
        try #require(Self.jfif(plain).header == Self.jfifHeader)
        var bare = Data(plain.prefix(2) + plain.dropFirst(20))
        JPEGDensity.setting(300, in: &bare)
        #expect(bare.count == plain.count && Self.jfif(bare).header == Self.jfifHeader)
        #expect(Self.jfif(bare).units == 1 && Self.jfif(bare).x == 300 && Self.jfif(bare).y == 300)
        #expect(Array(bare.dropFirst(20)) == Array(plain.dropFirst(20)))
        #expect(try Self.pixels(bare) == Self.pixels(plain))
    }

    /// Every PNG writer: libpng's (balanced), the fast writer, Adam7 (both efforts), palettes, APNG.
    static let pngCases: [(String, ImageEncodeOptions)] = [
        ("libpng", ImageEncodeOptions()),
        ("fast", ImageEncodeOptions(effort: .fastest)),
        ("interlaced", ImageEncodeOptions(tuning: ImageEncodeTuning(pngInterlaced: true))),
        ("interlaced fast", ImageEncodeOptions(effort: .fastest, tuning: ImageEncodeTuning(pngInterlaced: true))),
        ("palette", ImageEncodeOptions(tuning: ImageEncodeTuning(pngQuantizeColors: 16))),
        ("palette interlaced", ImageEncodeOptions(tuning: ImageEncodeTuning(pngInterlaced: true, pngQuantizeColors: 16))),
    ]

    @Test(arguments: pngCases.map(\.0))
    func pngPhysIsBeforeTheImageData(writer: String) throws {
        var options = try #require(Self.pngCases.first { $0.0 == writer }?.1)
        let plain = try CodersManager.shared.encode(Self.image, as: .png, options: options)
        options.dpi = 300
        let marked = try CodersManager.shared.encode(Self.image, as: .png, options: options)
        try Self.expectPhys(marked, perMetre: 11811)
        #expect(!PNGTestBytes.chunks([UInt8](plain)).contains { $0.type == "pHYs" })
        #expect(try Self.pixels(marked) == Self.pixels(plain))
    }

    @Test func apngHasPhysBeforeItsFrames() throws {
        let second = Image(pixels: PixelBuffer(width: 21, height: 13) { out in
            for i in out.indices { out[i] = i % 4 == 3 ? 255 : UInt8((i * 11) % 256) }
        })
        let animation = Image(frames: Self.image.frames + [ImageFrame(pixels: second.pixels, duration: 0.1)])
        let apng = try CodersManager.shared.encode(animation, as: .png, options: ImageEncodeOptions(dpi: 72))
        // round(72 / 0.0254) = 2835, the usual 72 dpi.
        try Self.expectPhys(apng, perMetre: 2835)
        let chunks = PNGTestBytes.chunks([UInt8](apng)).map(\.type)
        #expect(chunks.firstIndex(of: "pHYs")! < chunks.firstIndex(of: "acTL")!)
        #expect(try CodersManager.shared.decode(apng, options: ImageDecodeOptions()).frames.count == 2)
    }

    @Test func pngPhysIsClamped() throws {
        let png = try CodersManager.shared.encode(Self.image, as: .png, options: ImageEncodeOptions(dpi: 1e6))
        try Self.expectPhys(png, perMetre: 2_580_118)  // round(65535 / 0.0254)
    }

    /// One `pHYs` (X and Y per metre, unit 1) after IHDR and before the first IDAT, and every CRC right.
    private static func expectPhys(_ png: Data, perMetre: UInt32) throws {
        let chunks = PNGTestBytes.chunks([UInt8](png))
        let types = chunks.map(\.type)
        #expect(types.filter { $0 == "pHYs" }.count == 1)
        let at = try #require(types.firstIndex(of: "pHYs"))
        #expect(at > 0 && at < types.firstIndex(of: "IDAT")!)
        #expect(chunks[at].data == PNGTestBytes.be32(perMetre) + PNGTestBytes.be32(perMetre) + [1])
        #expect(PNGTestBytes.stream(chunks) == [UInt8](png), "CRCs recomputed give the same bytes")
    }
}
