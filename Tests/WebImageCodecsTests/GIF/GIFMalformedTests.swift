import Dispatch
import Foundation
import Testing
import WebImageCore
@testable import WebImageCodecs

/// The corpus's crash, regression and stall files (from image-rs/image-gif's own tests): each ends in a typed
/// error or an image, never a crash or a hang, through every entry point.
@Suite struct GIFMalformedTests {
    static let malformed: [(folder: String, name: String)] = {
        ["crashtest", "regression", "stall"].flatMap { folder in
            ((try? GIFTestSupport.corpusFiles(folder)) ?? []).map { (folder, $0) }
        }
    }()

    /// Runs `body`, failing the test unless it returns normally or throws a `WebImageError`.
    private static func expectTypedOutcome(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch is WebImageError {
            return
        } catch {
            Issue.record("\(what): untyped error \(error)")
        }
    }

    @Test func corpusHasTheMalformedFiles() {
        #expect(Self.malformed.count == 7)
    }

    @Test(arguments: malformed.map { "\($0.folder)/\($0.name)" })
    func malformedFileGivesTypedErrorOrImage(_ path: String) throws {
        let parts = path.split(separator: "/").map(String.init)
        let data = try GIFTestSupport.corpus(parts[0], parts[1])
        let coder = GIFCoder()
        Self.expectTypedOutcome("decode") { _ = try coder.decode(data, options: .init()) }
        Self.expectTypedOutcome("first frame") { _ = try coder.decode(data, options: .init(firstFrameOnly: true)) }
        Self.expectTypedOutcome("animated") {
            let decoder = try coder.makeAnimatedDecoder(data, options: .init())
            for index in (0..<decoder.frameCount).reversed() { _ = try decoder.frame(at: index) }
        }
        Self.expectTypedOutcome("progressive") {
            let progressive = coder.makeProgressiveDecoder(options: .init())
            for length in 1...data.count { _ = try progressive.decode(data.prefix(length), isFinished: false) }
            _ = try progressive.decode(data, isFinished: true)
        }
    }

    /// The two image-gif regression files are valid 8×8 and 1×1 GIFs (giftext reads them to the trailer).
    @Test(arguments: [("issue-208-block-type.gif", 8), ("issue-208-block-type-beta.gif", 8), ("issue-209-extension-block-type.gif", 1)])
    func regressionFilesDecode(name: String, side: Int) throws {
        let image = try GIFCoder().decode(try GIFTestSupport.corpus("regression", name), options: .init())
        #expect(image.pixelSize == PixelSize(width: side, height: side))
        #expect(image.frameCount == 1)
    }

    /// issue-101 declares a 6727×65351 screen: over the default limit it is rejected before allocating;
    /// with no limit, parsing its zero-width frame still terminates.
    @Test func stallFileTerminates() throws {
        let data = try GIFTestSupport.corpus("stall", "issue-101-infinite-empty-loop.gif")
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Self.expectTypedOutcome("decode") { _ = try GIFCoder().decode(data, options: .init()) }
            Self.expectTypedOutcome("animated") {
                _ = try GIFCoder().makeAnimatedDecoder(data, options: .init(maxPixelCount: .max)).frameCount
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(GIFTestSupport.badDataReason { _ = try GIFCoder().decode(data, options: .init()) }
            == .tooManyPixels(width: 6727, height: 65351, limit: 100_000_000))
    }

    @Test func emptyAndNonGIFBytesAreTypedErrors() {
        #expect(GIFTestSupport.badDataReason { _ = try GIFCoder().decode(Data(), options: .init()) } == .empty)
        #expect(throws: WebImageError.self) { try GIFCoder().decode(Data("GIF89a-not-really".utf8), options: .init()) }
        #expect(!GIFCoder().canDecode(Data("PNG".utf8)))
        #expect(GIFCoder().canDecode(Data("GIF89a".utf8)))
    }
}
