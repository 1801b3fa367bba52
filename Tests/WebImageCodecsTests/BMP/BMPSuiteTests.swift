import Foundation
import TestSupport
import Testing
import WebImage

/// Jason Summers' BMP Suite (`Tests/Corpus/bmpsuite`): every "good" file equals its reference PNG, every "bad"
/// one is a typed error (but the two whose only fault is a density the decoder never uses), and each
/// "questionable" one ends as `reference.tsv` records.
@Suite struct BMPSuiteTests {
    /// One line of `bmpsuite/reference.tsv`.
    struct Row: Sendable, CustomStringConvertible {
        let file: String
        /// The suite's acceptable renderings (any one may match), in `reference/`.
        let references: [String]
        /// `match` (equal to a reference), `close N` (within N per sample: colour-managed through the file's
        /// profile), `decoded` (an image, no reference to compare), `rejected`.
        let outcome: String
        var description: String { file }
    }

    static let rows: [Row] = {
        guard let text = try? String(contentsOf: TestCorpus.url("bmpsuite/reference.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t").map(String.init)
            return Row(file: f[0], references: f[1] == "-" ? [] : f[1].split(separator: ",").map(String.init), outcome: f[2])
        }
    }()

    @Test func corpusIsPresent() {
        #expect(Self.rows.count == 90)
        #expect(Self.rows.filter { $0.file.hasPrefix("g/") }.count == 27)
        #expect(Self.rows.filter { $0.file.hasPrefix("b/") }.count == 20)
    }

    @Test func goodFilesMatchAndBadFilesAreRejected() {
        for row in Self.rows where row.file.hasPrefix("g/") { #expect(row.outcome == "match", "\(row)") }
        let decodedBad: Set = ["b/baddens1.bmp", "b/baddens2.bmp"]
        for row in Self.rows where row.file.hasPrefix("b/") {
            #expect(row.outcome == (decodedBad.contains(row.file) ? "match" : "rejected"), "\(row)")
        }
    }

    @Test(arguments: rows)
    func endsAsRecorded(row: Row) throws {
        let data = try TestCorpus.data("bmpsuite/\(row.file)")
        let result: Image
        do {
            result = try BMPCoder().decode(data, options: .init())
        } catch let error as WebImageError {
            #expect(row.outcome == "rejected", "\(row): \(error)")
            #expect(error.code == 1001)
            return
        }
        #expect(row.outcome != "rejected", "\(row) decodes")
        #expect(result.format == .bmp)
        let header = try BMPCoder().header(data)
        #expect(header.pixelSize == result.pixelSize)
        let differences = try row.references.map { try Self.difference(result.pixels, reference: $0) }
        let best = differences.min() ?? Int.max
        switch row.outcome {
        case "match": #expect(best == 0, "\(row): differs by \(best)")
        case let close where close.hasPrefix("close "):
            #expect(best <= Int(close.dropFirst(6))!, "\(row): differs by \(best)")
        default: #expect(row.outcome == "decoded")
        }
    }

    /// The largest difference in any sample from a reference PNG, or `Int.max` when the sizes differ. Pixels
    /// transparent on both sides are equal whatever their colour (the references vary it; nothing shows it).
    static func difference(_ pixels: PixelBuffer, reference: String) throws -> Int {
        let png = try PNGCoder().decode(TestCorpus.data("bmpsuite/reference/\(reference)"), options: .init(colorSpace: .preserve))
        let expected = png.pixels.converted(to: .rgba8)
        guard expected.size == pixels.size else { return .max }
        var worst = 0
        for i in stride(from: 0, to: pixels.bytes.count, by: 4) where pixels.bytes[i + 3] != 0 || expected.bytes[i + 3] != 0 {
            for c in i..<i + 4 { worst = max(worst, abs(Int(pixels.bytes[c]) - Int(expected.bytes[c]))) }
        }
        return worst
    }
}
