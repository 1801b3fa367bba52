import Foundation
import TestSupport
import Testing
import WebImage

/// Truncated and corrupt TIFFs end in typed errors, in bounded time and memory.
@Suite struct TIFFDamageTests {
    @Test(arguments: ["rgb-3c-8b.tiff", "quad-tile.jpg.tiff", "palette-1c-4b.tiff", "quad-lzw-compat.tiff"])
    func truncatedFilesAreTypedErrors(file: String) throws {
        let data = try TestCorpus.data("tiff/\(file)")
        for length in [0, 4, 7, 8, 16, data.count / 3, data.count / 2] {
            let cut = data.prefix(length)
            #expect(endsInResultOrTypedError { _ = try TIFFCoder().header(cut) }, "\(file) cut at \(length)")
            #expect(throws: WebImageError.self, "\(file) cut at \(length)") {
                _ = try TIFFCoder().decode(cut, options: .init())
            }
        }
    }

    @Test func aDirectoryOutsideTheFileIsCorrupt() throws {
        var bytes = [UInt8](try TestCorpus.data("tiff/rgb-3c-8b.tiff"))
        bytes[4] = 0xFF; bytes[5] = 0xFF; bytes[6] = 0xFF; bytes[7] = 0x7F
        #expect(throws: WebImageError.self) { try TIFFCoder().decode(Data(bytes), options: .init()) }
        #expect(throws: WebImageError.self) { try TIFFCoder().header(Data(bytes)) }
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeAllocating() throws {
        // A 1x1 file whose width and height tags are rewritten to 100,000.
        var bytes = [UInt8](try TestCorpus.data("tiff/custom_dir_EXIF_GPS.tiff"))
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            guard tag == 256 || tag == 257 else { continue }
            let type = Int(bytes[at + 2])
            if type == 3 { bytes[at + 8] = 0xA0; bytes[at + 9] = 0x86 } else { bytes.replaceSubrange(at + 8 ..< at + 12, with: [0xA0, 0x86, 0x01, 0]) }
        }
        let header = try TIFFCoder().header(Data(bytes))
        #expect(header.pixelSize.width > 10_000 && header.pixelSize.height > 10_000)
        #expect(badImageDataDescription { _ = try TIFFCoder().decode(Data(bytes), options: .init()) }
                == BadImageDataReason.tooManyPixels(width: header.pixelSize.width, height: header.pixelSize.height,
                                                    limit: 100_000_000).description)
    }

    @Test func flippedBytesNeverCrash() throws {
        let data = try TestCorpus.data("tiff/quad-tile.jpg.tiff")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for _ in 0..<40 {
            var bytes = [UInt8](data)
            for _ in 0..<8 { bytes[next() % min(bytes.count, 2048)] = UInt8(next() & 0xFF) }
            #expect(endsInResultOrTypedError { _ = try TIFFCoder().decode(Data(bytes), options: .init()) })
        }
    }
}
