import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// An SVG whose text librsvg 2.54 lays out taller than pango's 32-bit height aborts the process (a Rust panic,
/// SIGABRT) unless refused first: `webimage decode` and `info` end with a typed error, and the service answers 422
/// and keeps serving.
@Suite struct SVGTextOverflowTests {
    static let document = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">"
        + "<text font-size=\"1e10\" y=\"50\">A</text></svg>"
    static let reason = "corrupt image data: the SVG's text is too large to lay out: a font size of up to 10000000000 "
        + "user units on 1 line, over the 262144 (font size × lines) librsvg lays out without aborting"

    @Test func decodeAndInfoEndInATypedError() async throws {
        let dir = try TemporaryDirectory()
        let file = dir.path("big.svg")
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: file))
        for arguments in [["decode", file, "-o", dir.path("out.png")], ["info", file]] {
            let result = try await CLIRunner.run(arguments, timeout: 60)
            #expect(result.exitedNormally, "\(arguments) died from a signal: \(result.stderr)")
            #expect(result.status == 1)
            #expect(result.stderrLines == ["webimage: \(file): \(Self.reason)"])
        }
    }

    @Test func theServiceAnswers422AndKeepsServing() async throws {
        let root = try TemporaryDirectory()
        try Data(Self.document.utf8).write(to: root.url.appendingPathComponent("big.svg"))
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><text y=\"15\">ok</text></svg>".utf8)
            .write(to: root.url.appendingPathComponent("small.svg"))
        let serve = try await ServeProcess.start(["--local-root", root.url.path])
        for (name, status) in [("big.svg", 422), ("small.svg", 200)] {
            let url = try #require(URL(string: "http://127.0.0.1:\(serve.port)/_/plain/local:///\(name)@png"))
            let (_, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == status, "\(name)")
        }
        #expect(serve.stop() == 0)
    }
}
