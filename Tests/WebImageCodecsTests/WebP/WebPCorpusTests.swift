import Foundation
import TestSupport
import Testing
import WebImage

/// One `<name>.webp` with the MD5 of the reference decoder's `.pam` output, from `libwebp_tests.md5`.
struct WebPReference: Sendable, CustomStringConvertible {
    let file: String
    let md5: String
    var description: String { file }

    /// The `.pam` lines of the corpus list: `<md5>  <name>.webp.pam` (md5sum's format).
    static let all: [WebPReference] = {
        let list = TestCorpus.url("webp/libwebp_tests.md5")
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, parts[1].hasSuffix(".webp.pam") else { return nil }
            return WebPReference(file: String(parts[1].dropLast(4)), md5: String(parts[0]))
        }
    }()
}

@Suite struct WebPCorpusTests {
    private func corpusData(_ name: String) throws -> Data {
        try TestCorpus.data("webp/\(name)")
    }

    @Test func referenceListHasAllPAMEntries() {
        #expect(WebPReference.all.count == 96)
    }

    @Test(arguments: WebPReference.all)
    func decodesLikeDwebp(reference: WebPReference) throws {
        let image = try WebPCoder().decode(try corpusData(reference.file), options: .init())
        #expect(image.format == .webp)
        #expect(image.frameCount == 1)
        #expect(MD5.hex(image.pixels.pamData()) == reference.md5)
    }

    @Test func md5MatchesRFC1321() {
        #expect(MD5.hex(Data()) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Data("The quick brown fox jumps over the lazy dog".utf8)) == "9e107d9d372bb6826bd81d3542a419d6")
    }

    /// libwebp accepts these odd files (as `dwebp` does); the output is the reference decoder's.
    @Test(arguments: [("bad_palette_index.webp", "75da37897db997f7bf7b86cd0a34eeb0", 128, 128),
                      ("bug3.webp", "e27a4bd5ea7d83bcbcb255fd57fa8921", 95, 95),
                      ("very_short.webp", "2ec8e78a5fef6ab980cff79948eb5d2c", 63, 66)])
    func edgeCasesDecodeLikeDwebp(file: String, md5: String, width: Int, height: Int) throws {
        let image = try WebPCoder().decode(try corpusData(file), options: .init())
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(MD5.hex(image.pixels.pamData()) == md5)
    }

    @Test(arguments: ["test.webp", "lossless1.webp", "lossy_alpha1.webp", "bryce.webp"])
    func truncatedFilesFailWithTypedErrors(file: String) throws {
        let data = try corpusData(file)
        for length in [1, 11, 20, 30, data.count / 2, data.count - 1] {
            do {
                _ = try WebPCoder().decode(data.prefix(length), options: .init())
                Issue.record("\(file) cut to \(length) bytes decoded")
            } catch let error as WebImageError {
                guard case .badImageData = error else {
                    Issue.record("\(file) cut to \(length): \(error)")
                    continue
                }
            }
        }
    }

    @Test func garbageAfterTheHeaderIsATypedError() {
        var bytes = Array("RIFF\u{40}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
        bytes += [UInt8](repeating: 0xA5, count: 64)
        #expect(throws: WebImageError.self) { try WebPCoder().decode(Data(bytes), options: .init()) }
        #expect(throws: WebImageError.self) { try WebPCoder().decode(Data(), options: .init()) }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let data = try corpusData("test.webp")
        do {
            _ = try WebPCoder().decode(data, options: ImageDecodeOptions(maxPixelCount: 128 * 127))
            Issue.record("decoded past the pixel limit")
        } catch WebImageError.badImageData(.tooManyPixels(let width, let height, _)) {
            #expect(width == 128 && height == 128)
        }
    }

    @Test func registeredByDefault() throws {
        let image = try CodersManager.shared.decode(try corpusData("test.webp"), options: .init())
        #expect(image.format == .webp)
        #expect(CodersManager.shared.canEncode(to: .webp))
        #expect(CodersManager.shared.progressiveDecoder(for: try corpusData("test.webp").prefix(16), options: .init()) != nil)
        #expect(try CodersManager.shared.animatedDecoder(for: try corpusData("test.webp"), options: .init())?.frameCount == 1)
    }
}

@Suite struct WebPCorruptionTests {
    /// Deterministically damaged copies of real files: every path (one-shot, progressive, lazy frames) ends in
    /// an image or a ``WebImageError``, never a crash.
    @Test(arguments: ["test.webp", "lossless_vec_1_6.webp", "lossy_alpha2.webp", "alpha_filter_2.webp"])
    func damagedFilesNeverCrash(file: String) throws {
        let original = [UInt8](try TestCorpus.data("webp/\(file)"))
        var state: UInt32 = 99
        var rejected = 0
        for round in 0..<24 {
            var bytes = original
            for _ in 0..<(1 + round % 4) {
                state = state &* 1_664_525 &+ 1_013_904_223
                // Even rounds hit the chunk headers, odd rounds anywhere.
                let span = round.isMultiple(of: 2) ? min(48, bytes.count - 12) : bytes.count - 12
                let position = 12 + Int(state >> 8) % span
                bytes[position] ^= UInt8(truncatingIfNeeded: state | 1)
            }
            let data = Data(bytes)
            if !expectImageOrTypedError({ _ = try WebPCoder().decode(data, options: .init()) }) { rejected += 1 }
            expectImageOrTypedError {
                let decoder = WebPCoder().makeProgressiveDecoder(options: .init())
                _ = try decoder.decode(data.prefix(data.count / 2), isFinished: false)
                _ = try decoder.decode(data, isFinished: true)
            }
            expectImageOrTypedError { _ = try WebPCoder().makeAnimatedDecoder(data, options: .init()).frame(at: 0) }
        }
        // The damage is real: libwebp rejects some copies (others still decode, with damaged pixels).
        #expect(rejected > 0)
    }

    /// Runs `body`; returns true when it succeeded, false when it threw (which must be a ``WebImageError``).
    @discardableResult
    private func expectImageOrTypedError(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            #expect(error is WebImageError)
            return false
        }
    }
}
