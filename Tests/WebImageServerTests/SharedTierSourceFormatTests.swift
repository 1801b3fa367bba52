import Foundation
import RedisTestSupport
import TestSupport
import Testing
import WebImage
import WebImageRedis
@testable import WebImageServer

/// Two proxies over one real `redis-server`: a source made on A is read back by B whatever its container says —
/// an AVIF whose `ftyp` major brand is the generic `mif1` as one branded `avif`, an SVGZ as an SVG — so the
/// origin is asked once in all. The shared tier refuses a value whose payload does not sniff as its stored format:
/// these sources are stored under the format their coder reports, which sniffing must agree with.
@Suite(.serialized) struct SharedTierSourceFormatTests {
    typealias M = SharedCacheMetrics

    /// A source the origin serves at `path`.
    struct Source: Sendable, CustomTestStringConvertible {
        let path: String
        let contentType: String
        let bytes: @Sendable () throws -> Data
        var testDescription: String { path }
    }

    static let corpusAVIF = "avif/Chimera_8bit_cropped_480x256.avif"
    static let sources = [
        Source(path: "/branded.avif", contentType: "image/avif") { try TestCorpus.data(corpusAVIF) },
        Source(path: "/generic.avif", contentType: "image/avif") { try TestCorpus.data(corpusAVIF, majorBrand: "mif1") },
        Source(path: "/drawing.svgz", contentType: "image/svg+xml") { SVGZSamples.compressed() },
    ]

    @Test func theSourcesAreWhatTheirNamesSay() throws {
        let generic = try TestCorpus.data(Self.corpusAVIF, majorBrand: "mif1")
        #expect(generic[8..<12].elementsEqual("mif1".utf8) && generic[16..<32].elementsEqual("mif1avifmiafMA1B".utf8))
        // What a source is stored under (its header's format) is what the shared tier's read sniffs back.
        for source in Self.sources {
            let bytes = try source.bytes()
            let format = try CodersManager.shared.header(for: bytes).format
            #expect(format == (source.path.hasSuffix(".svgz") ? .svg : .avif))
            let entry = SharedCacheEntry(bytes: Array(bytes), format: format)
            #expect(SharedCacheEntry(decoding: entry.encoded) == entry, "\(source.path)")
        }
    }

    @Test(arguments: sources)
    func aSourceMadeOnAIsReadByBWithoutTheOrigin(source: Source) async throws {
        try await SharedTierScene.with(images: 0) { scene in
            scene.origin.route(source.path, TestResponse(headers: [("Content-Type", source.contentType)],
                                                          body: try source.bytes()))
            let a = try await scene.instance(), b = try await scene.instance()
            let made = try await a.harness.get(a.harness.signedPath("w:20", source: source.path, ext: "png"))
            #expect(made.status == 200, "\(made.text)")
            #expect(await a.writesLanded(results: 1, sources: 1))
            // Another result of the same source on B: its source comes from Redis.
            let other = try await b.harness.get(b.harness.signedPath("w:10", source: source.path, ext: "png"))
            #expect(other.status == 200, "\(other.text)")
            #expect(try other.image().pixelSize.width == 10)
            #expect(b.count(M.hits, .source) == 1 && b.count(M.misses, .source) == 0)
            #expect(b.proxy.statistics.snapshot.corruptSharedValues == 0)
            // A's result on B: from Redis too.
            let same = try await b.harness.get(b.harness.signedPath("w:20", source: source.path, ext: "png"))
            #expect(same.status == 200 && same.body == made.body)
            #expect(scene.origin.requestCount(for: source.path) == 1)
        }
    }
}
