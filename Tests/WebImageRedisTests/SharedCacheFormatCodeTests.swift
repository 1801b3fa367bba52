import Foundation
import RedisTestSupport
import TestSupport
import Testing
import WebImage
@testable import WebImageRedis

/// The format byte of a shared-tier value: a fixed code per format, so values written by one instance mean the
/// same to a newer one whatever cases `ImageFormat` gains.
@Suite(.serialized) struct SharedCacheFormatCodeTests {
    /// Every format's code. A code once given is never changed nor reused: values in Redis carry it.
    static let table: [ImageFormat: UInt8] = [
        .jpeg: 0, .png: 1, .gif: 2, .webp: 3, .heic: 4, .heif: 5, .avif: 6, .tiff: 7, .bmp: 8, .svg: 9, .pdf: 10,
        .jxl: 11, .undefined: 12, .ico: 13, .mp4: 14, .mov: 15, .webm: 16, .mkv: 17, .avi: 18,
    ]

    /// A 1×1 GIF.
    static let gif = bytes(hex: "47494638396101000100800000000000ffffff21f904"
                                    + "01000000002c00000000010001000002024401003b")

    /// Values written by the encoding of version 3, checked in as hex: they must still decode, whatever cases
    /// `ImageFormat` gains. The GIF above with an ETag and a Last-Modified (the fuzz seed `gif-etag-date` with its
    /// checksum), and a bare ICO, the last format added when codes were positions in `allCases`.
    static let golden: [(hex: String, entry: SharedCacheEntry)] = [
        ("53574943030200082261626331323322000000006553f1000000002b47494638396101000100800000000000ffffff21f904"
            + "01000000002c00000000010001000002024401003b3027d2e1d15fb9ec9e62c5da5495b352",
         SharedCacheEntry(bytes: gif, format: .gif, etag: "\"abc123\"",
                          lastModified: Date(timeIntervalSince1970: 1_700_000_000))),
        ("53574943030d000000000000000000000000000600000100010064c932e9d96d92f3daf7a0900d4ff3bc",
         SharedCacheEntry(bytes: [0, 0, 1, 0, 1, 0], format: .ico)),
    ]

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    @Test func everyFormatHasItsPinnedCode() {
        #expect(Set(ImageFormat.allCases) == Set(Self.table.keys))
        #expect(Dictionary(uniqueKeysWithValues: ImageFormat.allCases.map { ($0, $0.sharedCacheCode) }) == Self.table)
        for code in UInt8.min...UInt8.max {
            #expect(ImageFormat(sharedCacheCode: code) == Self.table.first { $0.value == code }?.key, "code \(code)")
        }
    }

    @Test(arguments: golden.indices) func aValueWrittenByVersion3StillReads(index: Int) {
        let (hex, entry) = Self.golden[index]
        #expect(SharedCacheEntry(decoding: Self.bytes(hex: hex)) == entry)
        #expect(entry.encoded == Self.bytes(hex: hex))
    }

    /// `FuzzSharedCacheEntry` appends the checksum to its inputs: its seeds must be whole values of this version,
    /// or the fuzzer starts from inputs every check refuses.
    @Test func theFuzzSeedsAreValuesOfThisVersion() throws {
        let folder = TestCorpus.packageRoot.appendingPathComponent("Fuzz/Seeds/FuzzSharedCacheEntry")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(seeds == ["gif-etag-date", "png-bare"])
        for seed in seeds {
            let frame = Array(try Data(contentsOf: folder.appendingPathComponent(seed)))
            #expect(SharedCacheEntry(decoding: frame + ValueChecksum.of(frame)) != nil, "\(seed)")
        }
    }

    @Test func aCodeNoFormatHasIsRefused() {
        #expect(SharedCacheEntry(decoding: SharedCacheFrames.gif()) != nil)
        for code: UInt8 in [14, 0x7F, 0xFF] {
            #expect(SharedCacheEntry(decoding: SharedCacheFrames.gif(code: code)) == nil, "code \(code)")
        }
    }

    /// What the service counts as a corrupt shared value: a read answering `.rejected`.
    @Test func aValueOfANewerFormatReadsAsRejected() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(2)))
        let cache = RedisImageCache(nodes: [("only", client)], configuration: RedisImageCacheTests.configuration)
        try await client.set("swi:newer", value: SharedCacheFrames.gif(code: 14))
        #expect(try await cache.read(forKey: "newer") == .rejected)
        #expect(await cache.queryImage(forKey: "newer").cacheType == .none)
        await client.close()
    }
}
