import Foundation
import TestSupport
import Testing
import WebImage

/// Every file of `Tests/Corpus/heif` against its `reference.tsv` line (see the corpus README).
///
/// HEVC files go to ``HEIFCoder`` (libheif 1.15 with libde265, as the reference `heif-convert`): 8-bit files
/// are compared exactly with the reference MD5; 10- and 12-bit files decode to 16-bit storage (samples scaled to
/// the full range) and are compared with `heif-convert`'s 16-bit PNG (samples shifted up) within 1 per channel,
/// the rounding between the two, once both are rounded to 8 bits. The two AV1 files
/// (`example.avif`, `avif32.heif`) go to ``AVIFCoder`` by their brands; the reference there is libheif's AV1
/// path, whose YUV→RGB conversion differs (by 8 and 58, see the README), so they are compared with `avifdec`
/// (the same library, libavif 0.11) exactly and with the reference by size and alpha.
@Suite struct HEIFCorpusTests {
    static let valid = ISOBMFFReference.all(in: "heif").filter { !$0.isRejected }
    static let rejected = ISOBMFFReference.all(in: "heif").filter(\.isRejected)

    @Test func referenceListIsComplete() {
        #expect(Self.valid.count == 14)
        #expect(Self.rejected.count == 12)
    }

    @Test(arguments: valid)
    func decodesToTheReference(reference: ISOBMFFReference) throws {
        let data = try reference.data()
        // The references are the pixels as stored (the reference decoders manage no colour).
        let image = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        #expect(image.pixelSize == PixelSize(width: reference.width, height: reference.height))
        #expect(image.frameCount == reference.frames)
        #expect(image.orientation == .up)
        // `has_alpha` describes the canonical 8-bit pixels: a 12-bit alpha of 4094 of 4095 rounds to opaque.
        #expect(image.pixels.converted(to: .rgba8).containsTransparency == reference.hasAlpha)
        #expect(image.pixelFormat == (reference.bitDepth > 8 ? .rgba16 : .rgba8))
        if AVIFCoder().canDecode(data) {
            #expect(image.format == .avif)
            #expect(image.pixels == (try ReferenceDecoder.avifdec(reference.url)))
            return
        }
        #expect(HEIFCoder().canDecode(data))
        #expect(image.format == ImageFormat(sniffing: data))
        if reference.bitDepth == 8 {
            #expect(MD5.hex(canonicalRGBA8(image)) == reference.md5)
        } else {
            #expect(maxChannelDifference(image.pixels, try ReferenceDecoder.heifConvert(reference.url)) <= 1)
        }
    }

    /// A phone photo's ICC profile (`colr` `prof`): kept byte for byte with `.preserve`, converted to sRGB by
    /// default (so the pixels differ from the stored ones, which the reference holds).
    @Test func aPhotosICCProfileIsKeptOrConverted() throws {
        let data = try TestCorpus.data("heif/arrow.heic")
        let kept = try CodersManager.shared.decode(data, options: .init(colorSpace: .preserve))
        let profile = try #require(kept.iccProfile)
        #expect(profile.count > 128 && profile[36..<40] == Data("acsp".utf8))
        let converted = try CodersManager.shared.decode(data, options: .init())
        #expect(converted.iccProfile == nil && converted.colorProfileIssue == nil)
        #expect(converted.pixelSize == kept.pixelSize && converted.pixels != kept.pixels)
        var small = ImageDecodeOptions(colorSpace: .preserve)
        small.thumbnailPixelSize = PixelSize(width: 256, height: 256)
        let thumbnail = try CodersManager.shared.decode(data, options: small)
        #expect(thumbnail.iccProfile == profile)
        let written = try CodersManager.shared.encode(thumbnail, as: .heic, options: .init(quality: 0.5, effort: .fastest))
        #expect(try CodersManager.shared.decode(written, options: .init(colorSpace: .preserve)).iccProfile == profile)
    }

    /// libheif's fuzzer files, an AVC-coded item, corrupted, truncated and empty files: each a typed
    /// `badImageData` (1001), whichever coder (or none) the brands select.
    @Test(arguments: rejected)
    func rejectedFilesGiveBadImageData(reference: ISOBMFFReference) throws {
        let data = try reference.data()
        do {
            let image = try CodersManager.shared.decode(data, options: .init())
            Issue.record("\(reference.file) decoded to \(image.pixelSize)")
        } catch let error as WebImageError {
            #expect(error.code == 1001)
        }
    }

    /// An AVC-coded file has the major brand `avci`, which neither coder claims (libheif's own file-type check
    /// refuses it too): unsupported format.
    @Test func anAVCFileIsNotClaimed() throws {
        let data = try TestCorpus.data("heif/avc32.heif")
        #expect(!HEIFCoder().canDecode(data))
        #expect(!AVIFCoder().canDecode(data))
        do {
            _ = try CodersManager.shared.decode(data, options: .init())
            Issue.record("avc32.heif decoded")
        } catch let error as WebImageError {
            #expect(error.description == BadImageDataReason.unsupportedFormat(.undefined).description)
        }
    }

    /// `invalid_id.heic`'s `pitm` names an item that is a thumbnail, not a top-level image: the file's one
    /// top-level image is decoded, as `heif-convert` does.
    @Test func aPrimaryItemThatIsNoTopLevelImageFallsBack() throws {
        let data = try TestCorpus.data("heif/invalid_id.heic")
        #expect(try HEIFCoder().decode(data, options: .init()).pixelSize == PixelSize(width: 564, height: 870))
    }
}
