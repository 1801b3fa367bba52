import Foundation
import TestSupport
import Testing
import WebImage

/// The libjxl conformance files of `Tests/Corpus/jxl` against `reference.tsv` (djxl 0.7's output).
///
/// Sizes (as displayed: the orientation applied), frame counts and alpha are compared for every file. Pixels
/// are compared in three ways, each for a reason measured here:
/// - against the reference md5, exactly, for the files libjxl decodes with integer arithmetic (lossless,
///   modular, recompressed JPEG): the same libjxl 0.7 with the same defaults gives the same bytes anywhere;
/// - against djxl run now on this machine, exactly, for the lossy (VarDCT) files: their output depends on the
///   SIMD target libjxl dispatches to, so the md5 taken on another CPU differs while djxl here and the library
///   here agree to the byte;
/// - not at all for the five files with alpha and more than 8 bits a sample: djxl 0.7's PNG writer gives other
///   pixels there than the library returns to any caller (also as float: checked with a C program on the raw
///   API), in colour and in alpha (the corpus README's `alt_max_diff` of up to 255); their size, frames and
///   alpha channel are still checked.
@Suite struct JXLCorpusTests {
    private let coder = JXLCoder()

    static let exactAgainstReference: Set<String> = [
        "animation_spline.jxl", "cmyk_layers.jxl", "grayscale.jxl", "grayscale_jpeg.jxl", "patches_lossless.jxl",
        "delta_palette.jxl", "lossless_pfm.jxl", "grayscale_public_university.jxl", "lz77_flower.jxl", "spot.jxl",
    ]
    static let exactAgainstLocalDjxl: Set<String> = [
        "upsampling.jxl", "animation_icos4d.jxl", "noise.jxl", "progressive.jxl", "bench_oriented_brg.jxl",
        "opsin_inverse.jxl", "patches.jxl",
    ]
    static let geometryOnly: Set<String> = [
        "alpha_nonpremultiplied.jxl", "alpha_premultiplied.jxl", "alpha_triangles.jxl", "blendmodes.jxl",
        "sunset_logo.jxl",
    ]

    @Test func referenceListHasEveryFile() {
        #expect(JXLReference.valid.count == 22)
        #expect(JXLReference.rejected.map(\.file) == ["patches_lossless.truncated-4096.jxl"])
        let grouped = Self.exactAgainstReference.union(Self.exactAgainstLocalDjxl).union(Self.geometryOnly)
        #expect(grouped == Set(JXLReference.valid.map(\.file)))
    }

    /// The first frame, upright, as decoded (`.preserve`: djxl's PNG is not converted to sRGB either).
    private func decode(_ reference: JXLReference) throws -> Image {
        try coder.decode(try reference.data, options: .init(firstFrameOnly: true, applyOrientation: true,
                                                            colorSpace: .preserve))
    }

    @Test(arguments: JXLReference.valid)
    func sizeFramesAndAlphaMatch(reference: JXLReference) throws {
        let data = try reference.data
        #expect(ImageFormat(sniffing: data) == .jxl)
        let image = try decode(reference)
        #expect(image.format == .jxl)
        #expect(image.pixelSize == PixelSize(width: reference.width, height: reference.height))
        if Self.geometryOnly.contains(reference.file) {
            #expect(image.hasAlpha == reference.hasAlpha)
        } else {
            #expect(image.pixels.containsTransparency == reference.hasAlpha)
        }
        #expect(try coder.makeAnimatedDecoder(data, options: .init()).frameCount == reference.frames)
    }

    @Test(arguments: JXLReference.valid.filter { exactAgainstReference.contains($0.file) })
    func pixelsMatchTheReferenceMD5(reference: JXLReference) throws {
        #expect(MD5.hex(JXLTestSupport.canonicalRGBA8(try decode(reference).pixels)) == reference.md5)
    }

    @Test(arguments: JXLReference.valid.filter { exactAgainstLocalDjxl.contains($0.file) })
    func pixelsMatchDjxlOnThisMachine(reference: JXLReference) throws {
        let png = try JXLTestSupport.djxl(TestCorpus.url("jxl/\(reference.file)"))
        let expected = try PNGCoder().decode(png, options: .init(colorSpace: .preserve))
        #expect(try decode(reference).pixels == expected.pixels.converted(to: .rgba8))
    }

    @Test func truncatedFileIsATypedError() throws {
        let data = try JXLReference.rejected[0].data
        #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: .init()) } == .truncated)
        #expect(GIFTestSupport.badDataReason { _ = try coder.makeAnimatedDecoder(data, options: .init()) } == .truncated)
    }
}
