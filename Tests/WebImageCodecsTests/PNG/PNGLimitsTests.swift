import Foundation
import Testing
import WebImage

/// Damaged and oversized input ends in typed errors, quickly and without large allocations.
@Suite struct PNGLimitsTests {
    /// Signature + a valid IHDR for a 20,000 × 20,000 RGBA image, and nothing else (45 bytes).
    static let hugeHeader = Data(PNGTestBytes.stream([
        .init(type: "IHDR", data: PNGTestBytes.be32(20_000) + PNGTestBytes.be32(20_000) + [8, 6, 0, 0, 0]),
    ]))

    @Test func hugeHeaderIsRejectedBeforeDecoding() {
        let start = ContinuousClock.now
        let reason = PNGTestBytes.badDataReason { _ = try PNGCoder().decode(Self.hugeHeader, options: .init()) }
        #expect(reason == .tooManyPixels(width: 20_000, height: 20_000, limit: 100_000_000))
        #expect(ContinuousClock.now - start < .seconds(1))
        let animated = PNGTestBytes.badDataReason { _ = try PNGCoder().makeAnimatedDecoder(Self.hugeHeader, options: .init()) }
        #expect(animated == .tooManyPixels(width: 20_000, height: 20_000, limit: 100_000_000))
        let progressive = PNGTestBytes.badDataReason {
            _ = try PNGCoder().makeProgressiveDecoder(options: .init()).decode(Self.hugeHeader, isFinished: false)
        }
        #expect(progressive == .tooManyPixels(width: 20_000, height: 20_000, limit: 100_000_000))
    }

    @Test func truncatedFileIsReportedAsTruncated() throws {
        let pixels = PNGRoundTripTests.pattern(width: 64, height: 64, alpha: true)
        let png = try PNGCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .png, options: .init())
        for length in [20, 40, png.count / 2, png.count - 13] {
            let reason = PNGTestBytes.badDataReason { _ = try PNGCoder().decode(png.prefix(length), options: .init()) }
            #expect(reason == .truncated, "cut at \(length)")
        }
    }

    @Test func emptyAndForeignBytesAreRejected() {
        #expect(PNGTestBytes.badDataReason { _ = try PNGCoder().decode(Data(), options: .init()) } == .empty)
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().decode(Data("GIF89a-not-a-png-at-all-but-long-enough".utf8), options: .init()) }) else {
            Issue.record("foreign bytes must be corrupt")
            return
        }
    }

    @Test func damagedDataIsCorrupt() throws {
        var png = [UInt8](try PNGCoder().encode(Image(pixels: PNGRoundTripTests.pattern(width: 16, height: 16, alpha: true), hasAlpha: true),
                                                 as: .png, options: .init()))
        png[png.count - 20] ^= 0xFF // inside the last IDAT: its CRC no longer matches
        guard case .corrupt = PNGTestBytes.badDataReason({ _ = try PNGCoder().decode(Data(png), options: .init()) }) else {
            Issue.record("a CRC mismatch must be corrupt")
            return
        }
    }
}
