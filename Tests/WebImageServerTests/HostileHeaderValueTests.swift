import Foundation
import Testing
@testable import WebImageServer

/// Numbers a client or a stored value chooses never reach an integer conversion unchecked: a date field that
/// overflowed `Int32` arithmetic used to trap the whole server.
@Suite struct HostileHeaderValueTests {
    @Test(arguments: ["Sun, 06 Nov -2147483648 08:49:37 GMT", "Sun, 06 Nov 2147483647 08:49:37 GMT",
                      "Sun, 99 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 99:49:37 GMT", "Sun, 06 Nov 1994 08:49:37:1 GMT",
                      "Sun, 06 Nov 0000 08:49:37 GMT", "Sun, -6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 ::: GMT"])
    func outOfRangeDatesAreNotDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func datesBeyondWhatTheFormatSpellsAreClamped() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1.8e19)) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1e300)) == "Mon, 01 Jan 0001 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: .infinity)) == "Fri, 31 Dec 9999 23:59:59 GMT")
    }

    @Test func aHostileIfModifiedSinceIsIgnored() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            #expect(try await harness.get(path).status == 200)
            let answer = try await harness.get(path, headers: [("If-Modified-Since", "Sun, 06 Nov -2147483648 08:49:37 GMT")])
            #expect(answer.status == 200)
            #expect(try await harness.get("/health").status == 200)
        }
    }
}
