import Foundation
import Testing
import WebImage
@testable import WebImageRedis

/// Found with `FuzzSharedCacheEntry`'s round-trip check: a value whose Last-Modified was near 2^64 seconds
/// decoded, and encoding the entry again trapped converting the date back to an integer.
@Suite struct SharedCacheEntryDateTests {
    @Test func aDateHTTPCannotSpellIsRefused() {
        #expect(SharedCacheEntry(decoding: SharedCacheFrames.gif(seconds: .max)) == nil)
        #expect(SharedCacheEntry(decoding: SharedCacheFrames.gif(seconds: SharedCacheEntry.latestSecond + 1)) == nil)
        let last = SharedCacheEntry(decoding: SharedCacheFrames.gif(seconds: SharedCacheEntry.latestSecond))
        #expect(last?.lastModified == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(last.map { SharedCacheEntry(decoding: $0.encoded) == $0 } == true)
    }

    @Test func laterDatesAreWrittenAsTheLastOne() {
        let entry = SharedCacheEntry(bytes: Array("GIF89a".utf8), format: .gif,
                                     lastModified: Date(timeIntervalSince1970: 1e30))
        #expect(SharedCacheEntry(decoding: entry.encoded)?.lastModified == Date(timeIntervalSince1970: 253_402_300_799))
    }
}
