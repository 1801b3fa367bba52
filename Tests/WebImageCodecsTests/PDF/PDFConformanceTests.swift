import Foundation
import Testing
import TestSupport
import WebImage

/// pdf.js's test PDFs (`Tests/Corpus/pdf`) rendered by the coder against `pdftocairo -png -singlefile -r 72
/// -transp` (poppler's own tool, run at test time: several files do not embed their fonts, and fontconfig
/// substitutes whatever the machine has, for both alike): page 1, the sizes equal or one pixel larger in the
/// reference (`pdftocairo` rounds a fractional page size up, the coder to the nearest pixel as libvips does), and
/// every pixel of the common area within ``tolerance`` per premultiplied channel.
@Suite struct PDFConformanceTests {
    static let files = ["alphatrans", "asciihexdecode", "Embedded_font", "gradientfill", "hello_world_rotated",
                        "knockout_blend_multiply", "radial_gradients", "rotation", "sizes", "smask_alpha_bc",
                        "tiling_patterns_variations"]
    /// Levels of difference allowed per premultiplied channel: the two unpremultiply with different rounding
    /// (cairo's PNG writer and ``PDFCoder``), which a colour at low alpha magnifies, so colour is compared
    /// premultiplied.
    static let tolerance = 2

    /// The largest premultiplied channel difference between `image` and `reference` over the area they share;
    /// nil when the reference is smaller or more than one pixel larger a side.
    static func largestDifference(_ image: PixelBuffer, _ reference: PixelBuffer) -> Int? {
        let extraWidth = reference.width - image.width, extraHeight = reference.height - image.height
        guard (0...1).contains(extraWidth), (0...1).contains(extraHeight) else { return nil }
        let a = image.converted(to: .rgba8).bytes, b = reference.converted(to: .rgba8).bytes
        var largest = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4, j = (y * reference.width + x) * 4
                let alphaA = Int(a[i + 3]), alphaB = Int(b[j + 3])
                largest = max(largest, abs(alphaA - alphaB))
                for c in 0..<3 {
                    largest = max(largest, abs((Int(a[i + c]) * alphaA + 127) / 255 - (Int(b[j + c]) * alphaB + 127) / 255))
                }
            }
        }
        return largest
    }

    @Test func pageOneMatchesPdftocairo() throws {
        var passing: [String] = []
        for name in Self.files {
            let image = try PDFCoder().decode(TestCorpus.data("pdf/\(name).pdf"), options: ImageDecodeOptions())
            let reference = try PNGCoder().decode(PDFTestSupport.pdftocairo(TestCorpus.url("pdf/\(name).pdf")),
                                                  options: ImageDecodeOptions())
            let difference = Self.largestDifference(image.pixels, reference.pixels)
            if let difference, difference <= Self.tolerance {
                passing.append(name)
            } else {
                Issue.record("\(name): \(image.pixelSize) vs \(reference.pixelSize), largest difference \(difference.map(String.init) ?? "-")")
            }
        }
        #expect(passing.count == 11)
    }

    @Test func theHeaderMatchesPdfinfo() throws {
        // pdfinfo: hello_world_rotated 5 pages of 612 x 792 (the first turned by /Rotate: 792 x 612 displayed),
        // radial_gradients 5 of 595 x 842, sizes 3 (the first 612 x 792), alphatrans 1 of 595.28 x 841.89.
        let expected: [(String, PixelSize, Int)] = [
            ("hello_world_rotated", PixelSize(width: 792, height: 612), 5),
            ("radial_gradients", PixelSize(width: 595, height: 842), 5),
            ("sizes", PixelSize(width: 612, height: 792), 3),
            ("alphatrans", PixelSize(width: 595, height: 842), 1),
        ]
        for (name, size, pages) in expected {
            let header = try PDFCoder().header(TestCorpus.data("pdf/\(name).pdf"))
            #expect(header.pixelSize == size, "\(name)")
            #expect(header.pageCount == pages, "\(name)")
        }
    }
}
