import Foundation
import Testing
import TestSupport

/// Hostile SVGs through `webimage info` and `decode`, each measured in a child process: entity expansion,
/// deep nesting, `use` fan-out and huge declared sizes end in a typed error (one stderr line, status 1) or a
/// small raster, within seconds and a few MB over the baseline.
@Suite struct SVGHostileFileTests {
    static let namespace = "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""

    /// "Billion laughs": ten levels of ten references, 10⁹ copies of "lol" if expanded.
    static let billionLaughs: String = {
        var entities = "  <!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            entities += "  <!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n\(entities)]>\n"
            + "<svg \(namespace) width=\"10\" height=\"10\"><text>&lol9;</text></svg>"
    }()

    /// 10,000 nested groups.
    static let deepNesting = "<svg \(namespace) width=\"10\" height=\"10\">" + String(repeating: "<g>", count: 10_000)
        + "<rect width=\"10\" height=\"10\"/>" + String(repeating: "</g>", count: 10_000) + "</svg>"

    /// Nine levels of groups each using the previous one ten times: 10⁹ rectangles if instanced.
    static let useFanOut: String = {
        var defs = "<rect id=\"u0\" width=\"1\" height=\"1\"/>"
        for level in 1...9 {
            defs += "<g id=\"u\(level)\">" + String(repeating: "<use xlink:href=\"#u\(level - 1)\"/>", count: 10) + "</g>"
        }
        return "<svg \(namespace) width=\"10\" height=\"10\"><defs>\(defs)</defs><use xlink:href=\"#u9\"/></svg>"
    }()

    static let hugeSize = "<svg \(namespace) width=\"100000000\" height=\"100000000\">"
        + "<rect width=\"100%\" height=\"100%\" fill=\"red\"/></svg>"
    static let hugeViewBox = "<svg \(namespace) viewBox=\"0 0 100000000 100000000\">"
        + "<rect width=\"100%\" height=\"100%\" fill=\"red\"/></svg>"

    private static func write(_ text: String, _ name: String, to dir: TemporaryDirectory) throws -> String {
        let path = dir.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `arguments` in a child; checks it ended by itself within `seconds` and 32 MB over the baseline.
    private func measured(_ arguments: [String], baseline: Double, seconds: Double = 10,
                          sourceLocation: SourceLocation = #_sourceLocation) async throws -> MeasuredRun.Result {
        let result = try await MeasuredRun.run(arguments, timeout: 60)
        #expect(result.signal == nil, "\(arguments) died from signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
        #expect(result.peakMB < baseline + 32, "\(arguments): peak \(result.peakMB) MB over a \(baseline) MB baseline",
                sourceLocation: sourceLocation)
        #expect(result.seconds < seconds, "\(arguments) took \(result.seconds) s", sourceLocation: sourceLocation)
        return result
    }

    @Test func entityExpansionIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let file = try Self.write(Self.billionLaughs, "laughs.svg", to: dir)
        let baseline = try await MeasuredRun.baselineMB()
        for arguments in [["info", file], ["decode", file, "-o", dir.path("out.pam")]] {
            let result = try await measured(arguments, baseline: baseline)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderrLines.first?.hasSuffix("Detected an entity reference loop") == true, "\(result.stderr)")
        }
    }

    @Test func deepNestingIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let file = try Self.write(Self.deepNesting, "deep.svg", to: dir)
        let baseline = try await MeasuredRun.baselineMB()
        for arguments in [["info", file], ["decode", file, "-o", dir.path("out.pam")]] {
            let result = try await measured(arguments, baseline: baseline)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderrLines.first?.hasSuffix("Excessive depth in document: 256 use XML_PARSE_HUGE option") == true,
                    "\(result.stderr)")
        }
    }

    /// librsvg stops at its 500,000 referenced elements, after about 6 s of one core (measured on the
    /// development machine): the slowest end of the hostile files, and no deadline can cut it short.
    @Test func useFanOutStopsAtLibrsvgsLimit() async throws {
        let dir = try TemporaryDirectory()
        let file = try Self.write(Self.useFanOut, "fanout.svg", to: dir)
        let baseline = try await MeasuredRun.baselineMB()
        let info = try await measured(["info", file], baseline: baseline)
        #expect(info.status == 0)
        let decode = try await measured(["decode", file, "-o", dir.path("out.pam")], baseline: baseline, seconds: 30)
        #expect(decode.status == 1)
        #expect(decode.stderrLines == ["webimage: \(file): corrupt image data: librsvg: exceeded more than 500000 "
                                       + "referenced elements"])
    }

    /// `info` and a full decode refuse the declared size as over the pixel limit (the header is read without
    /// drawing; no surface is made); a thumbnail draws the document small.
    @Test(arguments: ["size", "viewBox"])
    func hugeDeclaredSizes(kind: String) async throws {
        let dir = try TemporaryDirectory()
        let file = try Self.write(kind == "size" ? Self.hugeSize : Self.hugeViewBox, "huge-\(kind).svg", to: dir)
        let baseline = try await MeasuredRun.baselineMB()
        let line = "webimage: \(file): too many pixels: 100000000x100000000 is over the limit of 100000000 pixels per frame"
        for arguments in [["info", file], ["decode", file, "-o", dir.path("out.pam")]] {
            let result = try await measured(arguments, baseline: baseline)
            #expect(result.status == 1)
            #expect(result.stderrLines == [line])
        }
        let thumbnail = try await measured(["decode", file, "-o", dir.path("thumb.pam"), "--thumbnail", "256x256"],
                                           baseline: baseline)
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(thumbnail.stdout.hasPrefix("\(dir.path("thumb.pam")): 256x256 frame 0 of 1"), "\(thumbnail.stdout)")
    }
}
