import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImage

/// The one walk over a WebP's RIFF chunks (``RIFFChunkIterator``), which the orientation, ICC and metadata
/// readers share: odd sizes padded, the RIFF size field's end or the bytes' end, whichever comes first, and a
/// cut chunk never handed out.
@Suite struct RIFFChunkIteratorTests {
    private struct Found: Equatable {
        var type: String
        var offset: Int
        var length: Int
    }

    /// VP8X (flags: EXIF and XMP), a 3-byte `XMP ` payload and its pad byte, a 2-byte `EXIF` payload: 52 bytes.
    private static let chunks: [(String, [UInt8])] = [("VP8X", [0x0C] + [UInt8](repeating: 0, count: 9)),
                                                       ("XMP ", [1, 2, 3]), ("EXIF", [4, 5])]
    private static let all = [Found(type: "VP8X", offset: 12, length: 10), Found(type: "XMP ", offset: 30, length: 3),
                              Found(type: "EXIF", offset: 42, length: 2)]

    /// A RIFF `WEBP` file of `chunks`, each padded to an even size; its size field says `declaredSize`
    /// (default: the true size).
    private static func riff(_ chunks: [(String, [UInt8])], declaredSize: Int? = nil) -> [UInt8] {
        var body = Array("WEBP".utf8)
        for (type, payload) in chunks {
            body += Array(type.utf8) + EXIFTestBytes.le32(UInt32(payload.count)) + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + EXIFTestBytes.le32(UInt32(declaredSize ?? body.count)) + body
    }

    private static func walk(_ bytes: [UInt8]) -> [Found]? {
        bytes.withUnsafeBytes { raw in
            RIFFChunkIterator(webp: raw).map { chunks in
                chunks.map { chunk in
                    Found(type: String(decoding: raw[chunk.offset ..< chunk.offset + 4], as: UTF8.self),
                          offset: chunk.offset, length: chunk.length)
                }
            }
        }
    }

    @Test func oddSizesArePadded() {
        #expect(Self.riff(Self.chunks).count == 52)
        #expect(Self.walk(Self.riff(Self.chunks)) == Self.all)
    }

    /// A partial download: the chunk cut off is not handed out.
    @Test func aCutChunkEndsTheWalk() {
        #expect(Self.walk(Array(Self.riff(Self.chunks).dropLast())) == Array(Self.all.prefix(2)))
        #expect(Self.walk(Array(Self.riff(Self.chunks).prefix(29))) == [])
    }

    /// Bytes past the size the RIFF header declares are not part of the file; a size larger than the bytes
    /// (a download still arriving) walks what has arrived.
    @Test func theSizeFieldAndTheBytesBothBoundTheWalk() {
        #expect(Self.walk(Self.riff(Self.chunks, declaredSize: 34)) == Array(Self.all.prefix(2)))
        #expect(Self.walk(Self.riff(Self.chunks, declaredSize: 1_000)) == Self.all)
        #expect(Self.walk(Self.riff(Self.chunks, declaredSize: 0)) == [])
    }

    @Test func otherBytesAreNoWebP() {
        var rifx = Self.riff(Self.chunks)
        rifx[3] = UInt8(ascii: "X")
        var avi = Self.riff(Self.chunks)
        avi.replaceSubrange(8..<12, with: Array("AVI ".utf8))
        #expect(Self.walk(rifx) == nil)
        #expect(Self.walk(avi) == nil)
        #expect(Self.walk(Array(Self.riff(Self.chunks).prefix(11))) == nil)
    }

    /// VP8X's flags are read only when it is the first chunk and has arrived whole.
    @Test func extendedFlagsComeFromAWholeFirstVP8X() {
        let flags = { (bytes: [UInt8]) in bytes.withUnsafeBytes { WebPChunkType.extendedFlags(in: $0) } }
        #expect(flags(Self.riff(Self.chunks)) == 0x0C)
        #expect(flags(Array(Self.riff(Self.chunks).prefix(29))) == nil)
        #expect(flags(Self.riff([("VP8 ", [0x0C, 0])] + Self.chunks)) == nil)
    }

    /// The orientation reader and the metadata reader find the same chunks behind an odd-sized one.
    @Test func readersShareTheWalk() {
        let exif = MetadataSamples.exif(orientation: 6)
        let xmp = MetadataSamples.xmp.count % 2 == 1 ? MetadataSamples.xmp : MetadataSamples.xmp + Data(" ".utf8)
        let bytes = Self.riff([("VP8X", [0x0C] + [UInt8](repeating: 0, count: 9)), ("XMP ", [UInt8](xmp)),
                               ("EXIF", [UInt8](exif))])
        bytes.withUnsafeBytes { raw in
            #expect(WebPOrientationReader.orientation(in: raw) == .right)
            #expect(WebPMetadata.read(raw) == ImageMetadata(exif: exif, xmp: xmp))
            #expect(WebPICCReader.profile(in: raw) == nil)
        }
    }
}
