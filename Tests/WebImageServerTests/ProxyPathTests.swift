import Testing
import WebImage
@testable import WebImageServer

@Suite struct ProxyPathTests {
    @Test func theBase64FormMaySplitTheSourceAnywhere() throws {
        let path = try ProxyPath("/sig/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        #expect(path.signature == "sig")
        #expect(path.signedPart == "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        #expect(path.optionSegments == ["rs:fill:300:400:0", "g:sm"])
        #expect(path.source == "http://example.com/images/curiosity.jpg")
        #expect(path.extensionFormat == .png)
    }

    @Test func thePlainFormIsPercentDecodedWithAnAtExtension() throws {
        let path = try ProxyPath("/_/w:100/plain/http://example.com/a%20b/photo.jpg%3Fv%3D2@webp")
        #expect(path.optionSegments == ["w:100"])
        #expect(path.source == "http://example.com/a b/photo.jpg?v=2")
        #expect(path.extensionFormat == .webp)
        let bare = try ProxyPath("/_/plain/https://example.com/x.png")
        #expect(bare.optionSegments.isEmpty && bare.source == "https://example.com/x.png" && bare.extensionFormat == nil)
    }

    @Test func base64PaddingIsOptional() throws {
        #expect(try ProxyPath("/_/aHR0cDovL2EvYg").source == "http://a/b")
        #expect(try ProxyPath("/_/aHR0cDovL2EvYg==").source == "http://a/b")
    }

    @Test(arguments: ["", "nosignature", "/only", "/_/", "/_/w:1", "/_/!!!notbase64", "/_/plain/", "/_/plain/x@pdf",
                      "/_/aHR0cDovL2EvYg.pdf", "/_/plain/%E0%A4%A"])
    func malformedPathsAreBadRequests(path: String) {
        #expect(throws: ProxyError.self) { try ProxyPath(Substring(path)) }
        do {
            _ = try ProxyPath(Substring(path))
        } catch {
            #expect(error.status == 400)
        }
    }
}
