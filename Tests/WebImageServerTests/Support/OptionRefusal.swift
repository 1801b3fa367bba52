import Testing
@testable import WebImageServer

/// Expects the options `text` (`/`-separated) to be refused with 400 and exactly `message`.
func expectRefused(_ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    var options = ProcessingOptions()
    #expect(throws: ProxyError.badRequest(message), sourceLocation: sourceLocation) {
        try OptionsParser().apply(text.split(separator: "/"), to: &options)
    }
}
