import Foundation
import Testing
import TestSupport
import WebImage

/// The SVG coder fetches nothing an SVG refers to: documents are read with no base file, so librsvg resolves
/// no path, `file://` or `http://` reference (images, filters' images, `use`, XInclude, CSS `@import`); only
/// `data:` URLs, whose bytes are inline, are drawn.
struct SVGReferenceSafetyTests {
    /// A 64×64 document with no background: anything drawn shows as alpha.
    static func document(_ body: String) -> Data {
        Data(("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
              + "xmlns:xi=\"http://www.w3.org/2001/XInclude\" width=\"64\" height=\"64\">\(body)</svg>").utf8)
    }

    static func drawnPixelCount(_ image: Image) -> Int {
        let bytes = image.frames[0].pixels.bytes
        return stride(from: 3, to: bytes.count, by: 4).count { bytes[$0] != 0 }
    }

    static func references(_ server: TestHTTPServer, file: URL) -> [String] {
        let png = server.url("/x.png").absoluteString, css = server.url("/style.css").absoluteString
        let image = { (href: String) in "<image href=\"\(href)\" xlink:href=\"\(href)\" width=\"64\" height=\"64\"/>" }
        return [
            image("/etc/passwd"), image("file:///etc/passwd"), image(file.path), image(file.absoluteString),
            image("x.png"), image(png),
            "<filter id=\"f\"><feImage href=\"\(png)\" xlink:href=\"\(png)\"/></filter>"
                + "<rect width=\"64\" height=\"64\" filter=\"url(#f)\"/>",
            "<use href=\"\(file.absoluteString)#dot\" xlink:href=\"\(file.absoluteString)#dot\"/>",
            "<use href=\"\(server.url("/defs.svg").absoluteString)#dot\"/>",
            "<style>@import url(\(css));</style><rect class=\"paint\" width=\"64\" height=\"64\" fill=\"none\"/>",
            "<rect width=\"64\" height=\"64\" fill=\"url(\(server.url("/defs.svg").absoluteString)#red)\"/>",
            "<text x=\"0\" y=\"20\"><xi:include href=\"/etc/passwd\" parse=\"text\"/></text>",
            "<text x=\"0\" y=\"20\"><xi:include href=\"\(file.absoluteString)\" parse=\"xml\"/></text>",
        ]
    }

    @Test func externalReferencesAreNeitherFetchedNorDrawn() async throws {
        let server = try await TestHTTPServer.start()
        let opaque = LargeImages.png(width: 64, height: 64, alpha: false)
        server.route("/x.png", TestResponse(headers: [("Content-Type", "image/png")], body: opaque))
        server.route("/style.css", TestResponse(body: Data(".paint { fill: red; }".utf8)))
        let defs = Self.document("<rect id=\"dot\" width=\"64\" height=\"64\" fill=\"red\"/>"
                                 + "<linearGradient id=\"red\"><stop stop-color=\"red\"/></linearGradient>")
        server.route("/defs.svg", TestResponse(headers: [("Content-Type", "image/svg+xml")], body: defs))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("svg-refs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dot.svg")
        try defs.write(to: file)
        // A relative `x.png` has nothing to resolve against, wherever the process runs.
        let png = directory.appendingPathComponent("x.png")
        try opaque.write(to: png)

        for body in Self.references(server, file: file) + [Self.references(server, file: png)[2]] {
            let image = try SVGCoder().decode(Self.document(body), options: .init())
            #expect(Self.drawnPixelCount(image) == 0, "\(body) drew something")
        }
        #expect(server.totalRequestCount == 0)
        try await server.shutdown()
    }

    /// `data:` URLs carry their bytes inline, so they fetch nothing: librsvg draws them, as libvips does.
    @Test func dataURLsAreDrawn() throws {
        let png = LargeImages.png(width: 2, height: 2, alpha: false).base64EncodedString()
        let body = "<image href=\"data:image/png;base64,\(png)\" width=\"64\" height=\"64\"/>"
        let image = try SVGCoder().decode(Self.document(body), options: .init())
        #expect(Self.drawnPixelCount(image) == 64 * 64)
    }
}
