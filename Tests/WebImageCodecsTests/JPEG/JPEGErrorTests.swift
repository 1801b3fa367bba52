import Foundation
import Testing
import WebImage

/// Bad bytes end in typed errors, never a crash, a hang or a grey-filled "success".
@Suite struct JPEGErrorTests {
    @Test func truncatedFileIsTruncated() throws {
        for data in [try JPEGTestSupport.baselineJPEG(width: 256, height: 256), try JPEGTestSupport.fixture("progressive-512.jpg")] {
            let cut = data.prefix(data.count * 6 / 10)
            let error = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(cut, options: .init()) }
            #expect(error.map { if case .badImageData(.truncated) = $0 { true } else { false } } == true)

            let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
            _ = try decoder.decode(cut, isFinished: false)
            let incremental = JPEGTestSupport.webImageError { _ = try decoder.decode(cut, isFinished: true) }
            #expect(incremental.map { if case .badImageData(.truncated) = $0 { true } else { false } } == true)
            // The decoder stays failed.
            #expect(throws: WebImageError.self) { try decoder.decode(data, isFinished: true) }
        }
    }

    @Test func fileCutInsideTheHeaderIsTruncated() throws {
        let cut = try JPEGTestSupport.baselineJPEG(width: 64, height: 64).prefix(100)
        let error = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(cut, options: .init()) }
        #expect(error.map { if case .badImageData(.truncated) = $0 { true } else { false } } == true)
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        #expect(try decoder.decode(cut, isFinished: false) == nil)
        let incremental = JPEGTestSupport.webImageError { _ = try decoder.decode(cut, isFinished: true) }
        #expect(incremental.map { if case .badImageData(.truncated) = $0 { true } else { false } } == true)
    }

    @Test func garbageAfterSOIIsCorrupt() throws {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 10, 1000] {
            let garbage = Data([0xFF, 0xD8] + (0..<length).map { _ in UInt8.random(in: 0...0xFE, using: &generator) })
            let error = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(garbage, options: .init()) }
            #expect(error?.code == 1001)
            let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
            let incremental = JPEGTestSupport.webImageError { _ = try decoder.decode(garbage, isFinished: true) }
            #expect(incremental?.code == 1001)
        }
        let notJPEG = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(Data("hello".utf8), options: .init()) }
        #expect(notJPEG?.code == 1001)
        let empty = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(Data(), options: .init()) }
        #expect(empty.map { if case .badImageData(.empty) = $0 { true } else { false } } == true)
    }

    /// Stray bytes between segments only make libjpeg warn ("extraneous bytes before marker"); browsers show
    /// such files, and so do both decoders, with the same pixels as the clean file.
    @Test func harmlessWarningStillDecodes() throws {
        let clean = try JPEGTestSupport.baselineJPEG(width: 64, height: 64)
        var damaged = clean
        let sof = try #require((2..<damaged.count - 1).first { damaged[$0] == 0xFF && damaged[$0 + 1] == 0xC0 })
        damaged.insert(contentsOf: [0x00, 0x11, 0x22], at: sof)
        let expected = try JPEGCoder().decode(clean, options: .init()).pixels
        #expect(try JPEGCoder().decode(damaged, options: .init()).pixels == expected)
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        #expect(try decoder.decode(damaged, isFinished: true)?.pixels == expected)
    }

    /// A valid small file whose SOF claims 60000×60000 is refused from its header alone (a decode would
    /// need 14 GB).
    @Test func hugeHeaderIsRejectedBeforeAllocating() throws {
        var data = try JPEGTestSupport.baselineJPEG(width: 16, height: 16)
        let sof = try #require((2..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        data.replaceSubrange(sof + 5..<sof + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        let isTooMany: (WebImageError?) -> Bool = { error in
            if case .badImageData(.tooManyPixels(60000, 60000, 100_000_000)) = error { true } else { false }
        }
        #expect(isTooMany(JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(data, options: .init()) }))
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        #expect(isTooMany(JPEGTestSupport.webImageError { _ = try decoder.decode(data, isFinished: false) }))
        // A lower limit applies to ordinary sizes too.
        let small = try JPEGTestSupport.baselineJPEG(width: 100, height: 100)
        let limited = JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(small, options: .init(maxPixelCount: 9999)) }
        #expect(limited.map { if case .badImageData(.tooManyPixels) = $0 { true } else { false } } == true)
    }

    /// Every strict prefix of a file, passed as if complete, is `.truncated` in both decoders, wherever
    /// the cut falls (inside a header segment, the scan header or the entropy-coded data).
    @Test func everyPrefixIsTruncated() throws {
        let data = try JPEGTestSupport.fixture("gray-64x48.jpg")
        let isTruncated: (WebImageError?) -> Bool = { error in
            if case .badImageData(.truncated) = error { true } else { false }
        }
        for end in 1..<data.count {
            let prefix = data.prefix(end)
            #expect(isTruncated(JPEGTestSupport.webImageError { _ = try JPEGCoder().decode(prefix, options: .init()) }),
                    "one-shot, \(end) bytes")
            let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
            #expect(isTruncated(JPEGTestSupport.webImageError { _ = try decoder.decode(prefix, isFinished: true) }),
                    "incremental, \(end) bytes")
        }
    }
}
