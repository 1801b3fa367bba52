import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// `/info`'s slow options over real HTTP, each against values its reference gives: BlurHash against both the
/// reference C encoder (PyPI `blurhash-python`) and the pure-Python port (`blurhash`), ThumbHash against the
/// PyPI `thumbhash` port, pHash against scipy's DCT-II of the same 32 × 32 grey values, the averages against
/// exact fractions, the swatches against node-vibrant's rules worked by hand.
@Suite struct InfoPixelTests {
    static func answer(_ options: String, _ source: Data, name: String = "/s.png") async throws -> [String: Any] {
        var fields: [String: Any] = [:]
        try await ProxyHarness.with { harness in
            harness.serve(name, source)
            let answer = try await harness.get("/info" + harness.signedPath("s:0/f:0/d:0/" + options, source: name))
            #expect(answer.status == 200, "\(answer.text)")
            fields = try InfoSamples.fields(answer)
        }
        return fields
    }

    @Test func blurHash() async throws {
        let source = try InfoSamples.gradient()
        #expect(try await Self.answer("bh:4:3", source)["blurhash"] as? String == "LxH27h2lwtX3mAWUjwfAgFfmfTfi")
        #expect(try await Self.answer("bh:1:1", source)["blurhash"] as? String == "00H27h")
        #expect(try await Self.answer("blurhash:9:9", source)["blurhash"] as? String
                == "|xH27h2lwtX3a^ofWroeWnmAWUjwfAfTf6fNf8fRgFfmfTfifNfifTfjfPn$WsjsfNfTfTfOfPfQe-fTfNfTfSfNfSfRfRofWojrfTfNfSfS"
                + "fOfPe?fNfTfOfSfSfOfRfPoeWpjufPfRfOfQfRfSeofRfPfQfRfPfPfRfO")
    }

    @Test func thumbHashAndPerceptualHash() async throws {
        #expect(try await Self.answer("th:1", try InfoSamples.gradient())["thumb_hash"] as? String
                == "DB180E1D9A6076877088888688678887F3A40FF788")
        #expect(try await Self.answer("ph:1", try InfoSamples.grey())["perceptual_hash"] as? String == "6a5136546fd52556")
        #expect(try await Self.answer("phash:1", try InfoSamples.grey())["perceptual_hash"] as? String == "6a5136546fd52556")
    }

    /// The mean of each channel, rounded: of the gradient; of the half-transparent square without its fully
    /// transparent half (the default) and with it.
    @Test func average() async throws {
        let gradient = try await Self.answer("avg:1", try InfoSamples.gradient())
        #expect(gradient["average"] as? [String: Int] == ["R": 124, "G": 115, "B": 95, "A": 255])
        let half = try InfoSamples.halfTransparent()
        #expect(try await Self.answer("average:1", half)["average"] as? [String: Int] == ["R": 145, "G": 95, "B": 100, "A": 185])
        #expect(try await Self.answer("average:1:0", half)["average"] as? [String: Int] == ["R": 200, "G": 48, "B": 50, "A": 93])
    }

    /// libimagequant's palette of a four-colour image holds exactly its four colours.
    @Test func palette() async throws {
        let fields = try await Self.answer("p:4", try InfoSamples.quadrants())
        let palette = try #require(fields["palette"] as? [[String: Int]])
        let entries = palette.map { entry in ["R", "G", "B", "A"].map { entry[$0] ?? -1 } }
        #expect(entries.sorted { $0.lexicographicallyPrecedes($1) }
                == InfoSamples.quadrantColours.map { $0.map(Int.init) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Each quadrant's colour at its 5-bit bucket's centre lands in one swatch; with build_missed the two muted
    /// swatches not found are made from the light and dark vibrant ones at lightness 0.3 (node-vibrant's rule).
    @Test func dominantColours() async throws {
        let source = try InfoSamples.quadrants()
        let found = try #require(try await Self.answer("dc:1", source)["dominant_colors"] as? [String: [String: Int]])
        let expected: [String: [String: Int]] = [
            "vibrant": ["R": 220, "G": 44, "B": 44], "dark_vibrant": ["R": 20, "G": 60, "B": 140],
            "light_vibrant": ["R": 252, "G": 204, "B": 100], "muted": ["R": 124, "G": 132, "B": 108],
        ]
        #expect(found == expected)
        let built = try #require(try await Self.answer("dominant_colors:1:1", source)["dominant_colors"] as? [String: [String: Int]])
        #expect(built == expected.merging(["light_muted": ["R": 150, "G": 104, "B": 3],
                                           "dark_muted": ["R": 19, "G": 57, "B": 134]]) { $1 })
    }

    /// Relative crop coordinates as processing's crop places them (40 × 30: a 20 × 10 crop centred starts at
    /// (10, 10), imgproxy's rounding), in fractions; smart gravity finds the detailed half.
    @Test func cropCoordinates() async throws {
        let source = try Fixtures.png(40, 30)
        func crop(_ options: String) async throws -> [String: Double]? {
            try await Self.answer(options, source)["crop"] as? [String: Double]
        }
        #expect(try await crop("c:20:10") == ["left": 10.0 / 40, "top": 10.0 / 30, "width": 0.5, "height": 10.0 / 30])
        #expect(try await crop("crop:20:10:soea") == ["left": 0.5, "top": 20.0 / 30, "width": 0.5, "height": 10.0 / 30])
        #expect(try await crop("c:0.5:0.5:nowe") == ["left": 0, "top": 0, "width": 0.5, "height": 0.5])
        let half = try InfoSamples.png(64, 32) { x, y in
            x < 32 ? [128, 128, 128, 255] : [UInt8((x * 37 + y * 91) % 256), UInt8((x * 53 + y * 17) % 256), UInt8((x * y) % 256), 255]
        }
        let smart = try await Self.answer("c:32:32:sm", half)["crop"] as? [String: Double]
        #expect(smart == ["left": 0.5, "top": 0, "width": 0.5, "height": 1])
    }

    /// `alpha:1:1` decodes and looks for a pixel below full alpha.
    @Test func transparency() async throws {
        let opaque = try await Self.answer("a:1:1", try Fixtures.png(8, 8, alpha: false))
        #expect(opaque["alpha"] as? [String: Bool] == ["alpha": false, "transparent": false])
        let half = try await Self.answer("alpha:1:1", try InfoSamples.halfTransparent())
        #expect(half["alpha"] as? [String: Bool] == ["alpha": true, "transparent": true])
    }

    /// Hostile or wrong arguments are refused before the source is fetched; a page past the end and a digest
    /// that does not match answer 422; a huge source's hash stays bounded (fitted into 100 × 100 first).
    @Test func refusalsAndBounds() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/s.png", try InfoSamples.gradient())
            func get(_ options: String) async throws -> ProxyHarness.Answer {
                try await harness.get("/info" + harness.signedPath(options, source: "/s.png"))
            }
            let refused = [("bh:10:3", "bh takes a whole number from 0 to 9, not '10'"),
                           ("bh:4", "bh takes 2–2 arguments, not 1"),
                           ("p:1", "p takes 0, or 2 to 256 colours, not 1"),
                           ("p:257", "p takes a whole number from 0 to 256, not '257'"),
                           ("chs:crc32", "chs takes one of md5, sha1, sha256, sha512, not 'crc32'"),
                           ("do:1", "info option 'do' \(ProcessingOptionTable.detectionRefusal)"),
                           ("classify:3", "info option 'classify' \(ProcessingOptionTable.detectionRefusal)"),
                           ("bc:1", "info option 'bc' is not supported by this service"),
                           ("rs:fit:10:10", "unknown info option 'rs'")]
            for (options, message) in refused {
                let answer = try await get(options)
                #expect(answer.status == 400, "\(options)")
                #expect(answer.text == ProxyError.badRequest(message).description + "\n", "\(options)")
            }
            #expect(harness.origin.requestCount(for: "/s.png") == 0)
            let page = try await get("pg:1/avg:1")
            #expect(page.text == ProxyError.unprocessable("page 1 is past the source's 1 page").description + "\n")
            let digest = try await get("hs:md5:00000000000000000000000000000000")
            #expect(digest.text == ProxyError.unprocessable("the source's md5 digest is not the URL's hashsum").description + "\n")
            harness.serve("/big.png", try Fixtures.encode(Image(pixels: Fixtures.noise(3000, 2000)), .png))
            let started = ContinuousClock.now
            let big = try await harness.get("/info" + harness.signedPath("bh:9:9/th:1", source: "/big.png"))
            #expect(big.status == 200)
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }
}
