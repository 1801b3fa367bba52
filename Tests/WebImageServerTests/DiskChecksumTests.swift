import Foundation
import Testing
import WebImageRedis
@testable import WebImageServer

/// The checksum checked disk entries start their extended data with: CRC-32 now, SHA-256's first 16 bytes before.
@Suite struct DiskChecksumTests {
    static let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

    @Test func aStampedEntryGivesBackItsExtendedData() {
        let stored = DiskChecksum.stamp(Self.bytes) + Data("record".utf8)
        #expect(stored.prefix(4) == Data("crc1".utf8))
        #expect(DiskChecksum.verified(stored, of: Self.bytes) == Data("record".utf8))
        #expect(DiskChecksum.verified(DiskChecksum.stamp(Data()), of: Data()) == Data())
    }

    @Test func changedBytesOrAChangedChecksumFail() {
        let stored = DiskChecksum.stamp(Self.bytes) + Data("record".utf8)
        var changed = Self.bytes
        changed[50_000] ^= 1
        #expect(DiskChecksum.verified(stored, of: changed) == nil)
        var wrongSum = stored
        wrongSum[5] ^= 0x80
        #expect(DiskChecksum.verified(wrongSum, of: Self.bytes) == nil)
        #expect(DiskChecksum.verified(stored.prefix(7), of: Self.bytes) == nil)
        #expect(DiskChecksum.verified(Data(), of: Self.bytes) == nil)
    }

    /// Entries written before the CRC carry SHA-256's first 16 bytes, and are still served.
    @Test func entriesWithTheEarlierChecksumAreStillRead() {
        let stored = Data(ValueChecksum.of(Self.bytes)) + Data("record".utf8)
        #expect(DiskChecksum.verified(stored, of: Self.bytes) == Data("record".utf8))
        var changed = Self.bytes
        changed[0] ^= 1
        #expect(DiskChecksum.verified(stored, of: changed) == nil)
    }

    /// The CRC is the standard CRC-32 (zlib's, IEEE): "123456789" gives 0xCBF43926, stored little-endian.
    @Test func theChecksumIsCRC32() {
        #expect(Array(DiskChecksum.stamp(Data("123456789".utf8)).suffix(4)) == [0x26, 0x39, 0xF4, 0xCB])
    }
}
