import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `autoquality` over real HTTP on the fixture photo: `size` keeps the result within its byte
/// target at the highest quality that does, `dssim` at the lowest quality within its target, and both stay in
/// their range.
@Suite struct ProxyAutoQualityTests {
    static func bytes(_ options: String, ext: String = "jpg",
                      configuration: ImageProxyConfiguration = ProxyHarness.configuration()) async throws -> Data {
        var body = Data()
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: ext))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            body = answer.body
        }
        return body
    }

    /// The JPEG of the fixture at `quality` through the service (autoquality's candidates are exactly these).
    static func atQuality(_ quality: Int) async throws -> Data { try await bytes("w:200/q:\(quality)") }

    @Test func sizeChoosesTheHighestQualityThatFits() async throws {
        let (at60, at61) = (try await Self.atQuality(60), try await Self.atQuality(61))
        let auto = try await Self.bytes("w:200/aq:size:\(at60.count):10:90")
        #expect(auto == at60, "quality 60 fits exactly; 61 (\(at61.count) bytes) does not")
        let tooSmall = try await Self.bytes("w:200/aq:size:10:40:90")
        #expect(tooSmall == (try await Self.atQuality(40)), "nothing fits: the lowest quality")
    }

    @Test func dssimChoosesWithinItsTargetAndRange() async throws {
        let loose = try await Self.bytes("w:200/aq:dssim:0.05:10:95:0.001")
        let tight = try await Self.bytes("w:200/aq:dssim:0.002:10:95:0.0005")
        #expect(loose.count < tight.count)
        let qualities = try await (10...95).asyncMap { try await Self.atQuality($0) }
        #expect(qualities.contains(loose) && qualities.contains(tight), "each is one of the range's qualities")
        let capped = try await Self.bytes("w:200/aq:dssim:0.0001:50:60")
        #expect(capped == (try await Self.atQuality(60)), "out of reach: the highest quality of the range")
    }

    @Test func theServicesSettingsApplyAndAURLReplacesThem() async throws {
        var configuration = ProxyHarness.configuration()
        configuration.processing.autoQuality.method = .size
        configuration.processing.autoQuality.target = 1
        configuration.processing.autoQuality.minQuality = 30
        let lowest = try await Self.bytes("w:200", configuration: configuration)
        #expect(lowest == (try await Self.atQuality(30)))
        let off = try await Self.bytes("w:200/aq:none", configuration: configuration)
        #expect(off == (try await Self.atQuality(80)))
        let png = try await Self.bytes("w:200", ext: "png", configuration: configuration)
        #expect(png == (try await Self.bytes("w:200", ext: "png")), "a lossless format is left alone")
    }

    @Test(arguments: [
        ("aq:ml", "autoquality:ml needs a neural network model, which this service does not have; dssim chooses by the same measure"),
        ("aq:dssim:0.02:80:70", "autoquality's minimum quality 80 is above its maximum 70"),
        ("aq:psnr", "aq takes one of none, size, dssim, not 'psnr'"),
        ("aq:dssim:0.02:0", "aq takes a whole number from 1 to 100, not '0'"),
        ("aq:dssim:0.02:70:80:2", "aq takes a number from 0.0 to 1.0, not '2'"),
    ])
    func badArgumentsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }
}

extension ClosedRange where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for value in self { results.append(try await transform(value)) }
        return results
    }
}
