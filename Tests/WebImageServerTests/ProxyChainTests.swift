import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's chained pipelines (`-`): parsing with presets as imgproxy merges them, and each pipeline run
/// on the one before's result over real HTTP.
@Suite struct ProxyChainTests {
    /// imgproxy's documented example: the preset's later parts merge into the URL's later pipelines, applied
    /// before their own options, and add the pipelines the URL lacks.
    @Test func presetsMergeIntoThePipelinesAfterThem() throws {
        let parser = OptionsParser(presets: ["test": "width:300/height:300/-/width:200/height:200/-/width:100/height:200"])
        var first = ProcessingOptions()
        let chain = try parser.pipelines(["width:400", "-", "preset:test", "width:500", "-", "width:600"],
                                         first: &first, base: ProcessingOptions())
        let sizes = ([first] + chain).map { [$0.width, $0.height] }
        #expect(sizes == [[400, 0], [500, 300], [600, 200], [100, 200]])
    }

    @Test func chainsAreBounded() throws {
        var options = ProcessingOptions()
        let nine = Array(repeating: ["w:10", "-"], count: 8).flatMap { $0 }.map { Substring($0) } + ["w:10"]
        #expect(throws: ProxyError.badRequest("at most 8 chained pipelines, not 9")) {
            try OptionsParser().pipelines(nine, first: &options, base: ProcessingOptions())
        }
        let looping = OptionsParser(presets: ["p": "w:1/-/w:2/-/w:3/-/w:4/-/w:5/-/w:6/-/w:7/-/w:8/-/w:9"])
        #expect(throws: ProxyError.badRequest("at most 8 chained pipelines, presets' included")) {
            try looping.pipelines(["pr:p"], first: &options, base: ProcessingOptions())
        }
    }

    @Test func eachPipelineProcessesTheResultBefore() async throws {
        let red = ProxyWatermarkOptionTests.solid(10, 10, (255, 0, 0))
        let configuration = ProxyHarness.configuration { $0.processing.watermark = Image(pixels: red) }
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            func answer(_ options: String) async throws -> ProxyHarness.Answer {
                try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: "png"))
            }
            #expect(try await answer("rs:fit:200:200/-/rot:90").image().pixelSize == PixelSize(width: 150, height: 200))
            #expect(try await answer("w:200/-/w:100").image().pixelSize == PixelSize(width: 100, height: 75))
            let marks = try await answer("w:100/wm:1:nowe/-/wm:1:soea").image()
            #expect(ProxyWatermarkOptionTests.isColour(marks, 0, 0, (255, 0, 0)))
            #expect(ProxyWatermarkOptionTests.isColour(marks, 99, 74, (255, 0, 0)), "two watermarks, one a pipeline")
            let format = try await harness.get(harness.signedPath("w:100/-/f:webp", source: "/photo.jpg"))
            #expect(format.headers.first { $0.0.lowercased() == "content-type" }?.1 == "image/webp",
                    "the last pipeline naming a format names the result's")
        }
    }

    @Test func pipelinesAreInTheResultKey() throws {
        let encoding = ProcessingOptionTableTests.quality
        let choice = FormatChoice(format: .png, dependsOnAccept: false)
        var first = ProcessingOptions()
        first.width = 200
        var second = ProcessingOptions()
        second.width = 100
        let chained = ResultKey.make(source: "s", options: first, format: choice, encoding: encoding, chain: [second])
        #expect(chained == ResultKey.make(source: "s", options: first, format: choice, encoding: encoding) + "/-/w:100")
        #expect(chained != ResultKey.make(source: "s", options: second, format: choice, encoding: encoding))
    }
}
