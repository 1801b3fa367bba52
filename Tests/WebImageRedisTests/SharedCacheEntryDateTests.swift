import Foundation
import Testing
import WebImage
@testable import WebImageRedis

/// Found with `FuzzSharedCacheEntry`'s round-trip check: a value whose Last-Modified was near 2^64 seconds
/// decoded, and encoding the entry again trapped converting the date back to an integer.
@Suite struct SharedCacheEntryDateTests {
    /// A frame of `GIF89a` (which sniffs as GIF) with `seconds` as its Last-Modified, its checksum appended.
    private func frame(seconds: UInt64) -> [UInt8] {
        let payload = Array("GIF89a".utf8)
        let format = UInt8(ImageFormat.allCases.firstIndex(of: .gif) ?? 0)
        var value = SharedCacheEntry.magic + [SharedCacheEntry.version, format, 0, 0]
        value += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: seconds >> UInt64($0)) }
        value += [0, 0, 0, UInt8(payload.count)] + payload
        return value + ValueChecksum.of(value)
    }

    @Test func aDateHTTPCannotSpellIsRefused() {
        #expect(SharedCacheEntry(decoding: frame(seconds: .max)) == nil)
        #expect(SharedCacheEntry(decoding: frame(seconds: SharedCacheEntry.latestSecond + 1)) == nil)
        let last = SharedCacheEntry(decoding: frame(seconds: SharedCacheEntry.latestSecond))
        #expect(last?.lastModified == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(last.map { SharedCacheEntry(decoding: $0.encoded) == $0 } == true)
    }

    @Test func laterDatesAreWrittenAsTheLastOne() {
        let entry = SharedCacheEntry(bytes: Array("GIF89a".utf8), format: .gif,
                                     lastModified: Date(timeIntervalSince1970: 1e30))
        #expect(SharedCacheEntry(decoding: entry.encoded)?.lastModified == Date(timeIntervalSince1970: 253_402_300_799))
    }
}
