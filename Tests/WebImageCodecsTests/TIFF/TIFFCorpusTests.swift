import Foundation
import TestSupport
import Testing
import WebImage

/// libtiff's own test images (`Tests/Corpus/tiff`): every file libtiff's RGBA reader reads decodes to the same
/// pixels; every file it refuses is a typed error.
@Suite struct TIFFCorpusTests {
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: TestCorpus.path("tiff"))) ?? [])
        .filter { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") }.sorted()

    @Test func corpusIsPresent() {
        #expect(Self.files.count == 31)
    }

    @Test(arguments: files)
    func matchesLibTIFF(file: String) throws {
        let path = TestCorpus.path("tiff/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let reference = LibTIFFReference.rgba(path: path) else {
            #expect(throws: WebImageError.self) { try TIFFCoder().decode(data, options: .init(firstFrameOnly: true)) }
            return
        }
        let image = try TIFFCoder().decode(data, options: .init(firstFrameOnly: true, colorSpace: .preserve))
        #expect(image.format == .tiff && image.orientation == .up)
        #expect(image.pixelWidth == reference.width && image.pixelHeight == reference.height)
        let ours = Self.premultiplied(image.pixels.converted(to: .rgba8).bytes)
        #expect(ours.count == reference.bytes.count)
        let worst = zip(ours, reference.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        // libtiff rounds 16-bit samples and premultiplies alpha with its own tables: one step apart at most.
        let tolerance = image.pixelFormat == .rgba16 || image.hasAlpha ? 1 : 0
        #expect(worst <= tolerance, "\(file): differs from libtiff by \(worst)")
        let header = try TIFFCoder().header(data)
        #expect(header.pixelSize == image.pixelSize && header.hasAlpha == image.hasAlpha)
    }

    /// Straight RGBA as libtiff's reader gives it: colour × alpha / 255, rounded.
    static func premultiplied(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] != 255 {
            let alpha = Int(out[i + 3])
            for c in i..<i + 3 { out[c] = UInt8((Int(out[c]) * alpha + 127) / 255) }
        }
        return out
    }

    @Test func pageCountsAreLibTIFFsTopLevelDirectories() throws {
        // As tiffinfo lists them: two 1x1 directories; a loop ends where libtiff detects it; two 1024x512 pages,
        // whose reduced-resolution SubIFDs are not pages.
        let expected = ["test_two_ifds.tif": 2, "test_ifd_loop_to_self.tif": 1, "tiff_with_subifd_chain.tif": 2,
                        "rgb-3c-8b.tiff": 1]
        for (file, frames) in expected {
            let data = try TestCorpus.data("tiff/\(file)")
            #expect(try TIFFCoder().header(data).frameCount == frames, "\(file)")
            #expect(try TIFFCoder().decode(data, options: .init()).frameCount == frames, "\(file)")
        }
    }

    @Test func corpusFilesReadThroughTheManager() throws {
        let data = try TestCorpus.data("tiff/palette-1c-8b.tiff")
        #expect(ImageFormat(sniffing: data) == .tiff)
        let image = try CodersManager.shared.decode(data, options: .init())
        #expect(image.format == .tiff && image.pixelSize == PixelSize(width: 157, height: 151))
        #expect(try CodersManager.shared.header(for: data).bitDepth == 8)
    }
}
