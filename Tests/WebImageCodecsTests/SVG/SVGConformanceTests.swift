import Foundation
import Testing
import TestSupport
import WebImage

/// A subset of resvg's test suite (`Tests/Corpus/resvg/`): each document rasterised at its reference PNG's size
/// and compared with that PNG within ``Tolerance``. The files librsvg 2.54 draws differently from resvg are
/// listed, with the reason, in ``SVGConformanceExpectations/failures``: the test fails when one of them starts
/// to pass, or any other file fails.
struct SVGConformanceTests {
    /// How close a rendering must be, on premultiplied 8-bit channels (so a transparent pixel's colour never
    /// counts): cairo and resvg's tiny-skia anti-alias edges differently, so a few edge pixels always differ a
    /// little; a missing or misplaced shape, a wrong colour or a wrong gradient differs a lot over many pixels.
    enum Tolerance {
        /// The mean absolute difference over every channel of every pixel.
        static let meanDifference = 2.0
        /// The share of pixels with a channel more than ``strongDifference`` off.
        static let strongPixelShare = 0.01
        static let strongDifference = 48
    }

    struct Comparison {
        var meanDifference: Double
        var strongPixelShare: Double
        var passes: Bool {
            meanDifference <= Tolerance.meanDifference && strongPixelShare <= Tolerance.strongPixelShare
        }
    }

    static let corpus = TestCorpus.url("resvg")

    /// Every `.svg` under the corpus, as paths relative to it (`shapes/rect/simple-case.svg`), sorted.
    static func documents() throws -> [String] {
        let root = corpus.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".svg") }.sorted()
    }

    static func compare(_ document: String) throws -> Comparison {
        let reference = try PNGCoder().decode(try Data(contentsOf: corpus.appendingPathComponent(
            String(document.dropLast(4)) + ".png")), options: .init())
        let expected = reference.frames[0].pixels
        let options = ImageDecodeOptions(thumbnailPixelSize: expected.size, preserveAspectRatio: false)
        let actual = try SVGCoder().decode(try Data(contentsOf: corpus.appendingPathComponent(document)),
                                           options: options).frames[0].pixels
        guard actual.size == expected.size, expected.format == .rgba8 else {
            return Comparison(meanDifference: .infinity, strongPixelShare: 1)
        }
        var total = 0, strong = 0
        let a = actual.bytes, b = expected.bytes
        for pixel in stride(from: 0, to: a.count, by: 4) {
            let alphaA = Int(a[pixel + 3]), alphaB = Int(b[pixel + 3])
            var worst = abs(alphaA - alphaB)
            total += worst
            for channel in pixel..<pixel + 3 {
                let difference = abs((Int(a[channel]) * alphaA + 127) / 255 - (Int(b[channel]) * alphaB + 127) / 255)
                total += difference
                worst = max(worst, difference)
            }
            if worst > Tolerance.strongDifference { strong += 1 }
        }
        return Comparison(meanDifference: Double(total) / Double(a.count),
                          strongPixelShare: Double(strong) / Double(a.count / 4))
    }

    @Test func resvgSuiteSubset() throws {
        let documents = try Self.documents()
        #expect(documents.count == SVGConformanceExpectations.documentCount)
        var passed: [String] = [], failed: [String: String] = [:]
        for document in documents {
            do {
                let comparison = try Self.compare(document)
                if comparison.passes {
                    passed.append(document)
                } else {
                    failed[document] = String(format: "mean %.2f, %.2f%% of pixels off", comparison.meanDifference,
                                              comparison.strongPixelShare * 100)
                }
            } catch {
                failed[document] = "error: \(error)"
            }
        }
        let expectedFailures = SVGConformanceExpectations.failures
        for (document, why) in failed.sorted(by: { $0.key < $1.key }) where expectedFailures[document] == nil {
            Issue.record("\(document) fails: \(why)")
        }
        for document in passed where expectedFailures[document] != nil {
            Issue.record("\(document) passes now: take it off the expected failures")
        }
        #expect(passed.count == SVGConformanceExpectations.passCount)
        #expect(Set(expectedFailures.keys).isSubset(of: Set(documents)))
    }
}
