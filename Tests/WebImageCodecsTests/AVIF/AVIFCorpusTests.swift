import Foundation
import Testing
import WebImage

/// Every file of `Tests/Corpus/avif` against its `reference.tsv` line (see the corpus README).
///
/// Pixels are compared exactly with the reference MD5 (`avifdec -d 8`, libavif 0.11 as here; for the three
/// `clap` files 0.11's `avifdec` refuses, libavif 1.4.2, which agrees exactly with 0.11 on 8-bit files). 10-
/// and 12-bit files decode to 16-bit storage; rounded to 8 bits they equal `avifdec -d 8`'s own conversion,
/// except where alpha is partial (`clap_irot_imir_non_essential.avif`, 10-bit with alpha: 2 apart, measured):
/// `avifdec` rounds alpha and unpremultiplied colour its own way, so those are compared with its output (the
/// README's transforms applied) within 3 per channel. That file's transforms are not marked essential (MIAF
/// requires it): it is accepted with its transforms applied, as libavif 0.11 reads it.
@Suite struct AVIFCorpusTests {
    static let valid = ISOBMFFReference.all(in: "avif").filter { !$0.isRejected }
    static let rejected = ISOBMFFReference.all(in: "avif").filter(\.isRejected)
    /// libavif 0.11 ignores the alpha of a grid image whose alpha item is not a grid (libavif issue 1203).
    static let alphaDroppedByLibavif011: Set<String> = ["color_grid_alpha_nogrid.avif"]

    /// `avifdec` 0.11 writes an 8-bit 4:0:0 image's luma samples into a grey PNG as they are; the library's
    /// RGB conversion (ours, and libavif 1.4.2's, 20 apart per the README) expands this file's limited range.
    static let limitedRangeGreyWrittenAsLuma: Set<String> = ["Monochrome.avif"]

    /// Limited-range grey (16…235) expanded to full range, `(Y − 16) × 255 / 219`, rounded and clamped.
    private func expandedFromLimitedRange(_ luma: PixelBuffer) -> PixelBuffer {
        let bytes = luma.bytes.enumerated().map { index, value -> UInt8 in
            guard index % 4 != 3 else { return value }
            return UInt8(min(255, max(0, ((Double(value) - 16) * 255 / 219).rounded())))
        }
        return PixelBuffer(width: luma.width, height: luma.height, bytes: bytes)
    }

    @Test func referenceListIsComplete() {
        #expect(Self.valid.count == 30)
        #expect(Self.rejected.map(\.file) == ["alpha_noispe.avif"])
    }

    @Test(arguments: valid)
    func decodesToTheReference(reference: ISOBMFFReference) throws {
        let data = try reference.data()
        // The references are the pixels as stored (avifdec manages no colour).
        let image = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        #expect(image.format == .avif)
        #expect(image.orientation == .up)
        #expect(image.pixelSize == PixelSize(width: reference.width, height: reference.height))
        #expect(image.frameCount == reference.frames)
        #expect(image.pixelFormat == (reference.bitDepth > 8 ? .rgba16 : .rgba8))
        if Self.alphaDroppedByLibavif011.contains(reference.file) {
            #expect(!image.hasAlpha)
            #expect(image.pixels == (try ReferenceDecoder.avifdec(reference.url)))
            return
        }
        // `has_alpha` describes the canonical 8-bit pixels: a 12-bit alpha of 4094 of 4095 rounds to opaque.
        #expect(image.pixels.converted(to: .rgba8).containsTransparency == reference.hasAlpha)
        if Self.limitedRangeGreyWrittenAsLuma.contains(reference.file) {
            let luma = try ReferenceDecoder.avifdec(reference.url)
            #expect(maxChannelDifference(image.pixels, expandedFromLimitedRange(luma)) <= 1)
        } else if reference.bitDepth > 8 && reference.hasAlpha {
            let expected = applyingCorpusTransforms(reference.transforms, to: try ReferenceDecoder.avifdec(reference.url))
            #expect(maxChannelDifference(image.pixels, expected) <= 3)
        } else {
            #expect(MD5.hex(canonicalRGBA8(image)) == reference.md5)
        }
    }

    @Test(arguments: rejected)
    func rejectedFilesGiveBadImageData(reference: ISOBMFFReference) throws {
        let data = try reference.data()
        #expect(AVIFCoder().canDecode(data))
        #expect(throws: WebImageError.self) { try CodersManager.shared.decode(data, options: .init()) }
        do {
            _ = try AVIFCoder().decode(data, options: .init())
        } catch let error as WebImageError {
            #expect(error.code == 1001)
            #expect(error.description.contains("BMFF parsing failed"))
        }
    }
}
