import Testing
import WebImage

@Suite struct WebImageOptionsTests {
    @Test func parsesNamesAndRejectsUnknownOnes() throws {
        #expect(try WebImageOptions(parsing: "refreshCached, retryFailed,fromCacheOnly") == [.refreshCached, .retryFailed, .fromCacheOnly])
        #expect(try WebImageOptions(parsing: "") == [])
        #expect(WebImageOptions.byName.count == 25)
        #expect(Set(WebImageOptions.byName.values.map(\.rawValue)).count == 25)
        do {
            _ = try WebImageOptions(parsing: "retryFailed,noSuchOption")
            Issue.record("expected an error")
        } catch let error as WebImageError {
            #expect(error.code == 1102)
            #expect(error.description.contains("noSuchOption"))
        }
    }
}
