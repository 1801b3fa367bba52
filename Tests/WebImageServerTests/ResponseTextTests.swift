import Foundation
import Testing
@testable import WebImageServer

/// The per-request text written without Foundation's formatters: the same as those formatters write.
struct ResponseTextTests {
    @Test(arguments: [
        (Int64(0), "0.000"), (1, "0.001"), (999, "0.999"), (1000, "1.000"), (12_345, "12.345"),
        (1_000_050, "1000.050"), (86_400_000_000, "86400000.000"),
    ])
    func durationsAsPercentThreeF(microseconds: Int64, text: String) {
        #expect(AccessLog.milliseconds(microseconds) == text)
        #expect(text == String(format: "%.3f", Double(microseconds) / 1000))
    }

    @Test(arguments: [
        ("/sig/rs:fit:10:10/plain/a.jpg", AccessLog.Route.image, "/***/rs:fit:10:10/plain/a.jpg"),
        ("/sig", .image, "/***"),
        ("/", .image, "/***"),
        ("//x", .image, "/***/x"),
        ("nothing", .image, "nothing"),
        ("/info/sig/rs:fit:10:10/plain/a.jpg", .info, "/info/***/rs:fit:10:10/plain/a.jpg"),
        ("/info", .info, "/info"),
        ("/info/", .info, "/info/***"),
        ("/health", .operational, "/health"),
        ("/é/ü/x", .image, "/***/ü/x"),
    ])
    func signaturesRedactedAsTheSplitDid(path: String, route: AccessLog.Route, redacted: String) {
        #expect(AccessLog.redacted(Substring(path), route: route) == redacted)
    }

    /// The source's stem is what Foundation's `deletingPathExtension` gives, for names with dots anywhere.
    @Test(arguments: ["photo.jpg", "image.tar.gz", ".hidden", "a.", "a..b", "..png", "...png", ".a.b", "a.b.",
                      "noext", "x.y%20z", "%C3%A9.png", "..", "...", "-.x"])
    func sourceStemIsFoundations(name: String) throws {
        let url = try #require(URL(string: "https://example.com/dir/" + name))
        let expected = (url.lastPathComponent as NSString).deletingPathExtension
        #expect(ProxyResponse.sourceStem(url) == expected)
    }

    @Test func aSourceWithoutAFileNameHasNoStem() throws {
        #expect(ProxyResponse.sourceStem(try #require(URL(string: "https://example.com/"))) == nil)
        #expect(ProxyResponse.sourceStem(try #require(URL(string: "https://example.com"))) == nil)
    }
}
