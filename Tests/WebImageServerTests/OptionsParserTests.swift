import Testing
import WebImage
@testable import WebImageServer

@Suite struct OptionsParserTests {
    static func parse(_ text: String, presets: [String: String] = [:]) throws(ProxyError) -> ProcessingOptions {
        var options = ProcessingOptions()
        try OptionsParser(presets: presets).apply(text.split(separator: "/"), to: &options)
        return options
    }

    static func status(_ text: String) -> Int? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.status
        }
    }

    @Test func resizeAndItsShorthandsSetTypeSizeAndEnlarge() throws {
        let options = try Self.parse("rs:fill:300:400:1")
        #expect(options.resizingType == .fill && options.width == 300 && options.height == 400 && options.enlarge)
        let partial = try Self.parse("resize:fill-down/rs::120")
        #expect(partial.resizingType == .fillDown && partial.width == 120 && partial.height == 0 && !partial.enlarge)
        let separate = try Self.parse("rt:force/w:10/h:20/el:t/s:30")
        #expect(separate.resizingType == .force && separate.width == 30 && separate.height == 20 && separate.enlarge)
        #expect(try Self.parse("resize:auto:5:6").resizingType == .auto)
        #expect(try Self.parse("size:7:8:false").width == 7)
    }

    @Test func everyOtherOptionAndAlias() throws {
        let options = try Self.parse("dpr:2/g:noea:3:-0.25/c:100:50:so/q:80/f:webp/bl:3.5/sh:0.5/rot:-90/fl:1:0/bg:ff8000/sm:1/mb:5000/cb:v2/exp:1700000000/fq:webp:70:avif:50/ar:1")
        #expect(options.dpr == 2 && options.gravity == .northEast)
        #expect(options.gravityOffsetX == 3 && options.gravityOffsetY == -0.25)
        #expect(options.flipHorizontally && !options.flipVertically && options.formatQuality == [.webp: 70, .avif: 50])
        #expect(options.crop == ProcessingOptions.Crop(width: 100, height: 50, gravity: .south))
        #expect(options.quality == 80 && options.format == .webp && options.blur == 3.5 && options.sharpen == 0.5)
        #expect(options.rotate == 270 && options.background == RGBAColor(red: 255, green: 128, blue: 0))
        #expect(options.stripMetadata && options.maxBytes == 5000 && options.cacheBuster == "v2")
        #expect(options.expires == 1_700_000_000)
        let long = try Self.parse("gravity:fp:0.25:0.75/crop:0.5/quality:1/format:jpg/ext:png/blur:0/sharpen:1/rotate:180/background:1:2:3/strip_metadata:true/max_bytes:0/cachebuster:x/expires:1")
        #expect(long.gravity == .focusPoint(x: 0.25, y: 0.75) && long.crop?.width == 0.5 && long.format == .png)
        #expect(long.rotate == 180 && long.background == RGBAColor(red: 1, green: 2, blue: 3) && long.stripMetadata)
        let gravities = ["no": ProcessingOptions.Gravity.north, "so": .south, "ea": .east, "we": .west, "nowe": .northWest,
                         "soea": .southEast, "sowe": .southWest, "ce": .center, "sm": .smart]
        for (name, gravity) in gravities { #expect(try Self.parse("g:\(name)").gravity == gravity) }
        let offset = try Self.parse("g:ce:10:-5")
        #expect(offset.gravity == .center && offset.gravityOffsetX == 10 && offset.gravityOffsetY == -5)
        let flipped = try Self.parse("flip:0:t")
        #expect(!flipped.flipHorizontally && flipped.flipVertically)
    }

    /// What the service cannot do yet is refused by name, never answered with a different image.
    @Test(arguments: [
        ("ex:1:sm", "bad request: ex cannot use smart gravity (sm)"),
        ("g:sm:1:2", "bad request: smart gravity (sm) takes no offsets"),
        ("bga:0.5", "bad request: processing option 'bga' is an imgproxy Pro option"),
        ("pbl:5", "bad request: processing option 'pbl' is an imgproxy Pro option"),
        ("bd:5:face", "bad request: processing option 'bd' needs object detection, which takes a neural network model this service does not have"),
        ("g:obj:face", "bad request: gravity 'obj' needs object detection, which takes a neural network model this service does not have"),
    ])
    func unsupportedOptionsAreRefusedByName(text: String, message: String) {
        expectRefused(text, String(message.dropFirst("bad request: ".count)))
        #expect(Self.status(text) == 400)
    }

    /// Extending from `resize`, `size`, `extend` and `extend_aspect_ratio`, with gravity and offsets; padding in
    /// CSS's shorthand; zoom for both sides or each.
    @Test func extendPaddingAndZoom() throws {
        let resized = try Self.parse("rs:fit:300:300:0:1:soea:5:6")
        #expect(resized.extend == ProcessingOptions.Extension(gravity: .southEast, offsetX: 5, offsetY: 6))
        #expect(try Self.parse("rs:fit:300:300:0:0:ce").extend == nil)
        #expect(try Self.parse("s:10:10:0:t").extend == ProcessingOptions.Extension())
        #expect(try Self.parse("ex:1/ex:0").extend == nil)
        #expect(try Self.parse("exar:1:no").extendAspectRatio == ProcessingOptions.Extension(gravity: .north))
        #expect(try Self.parse("pd:10").padding == ProcessingOptions.Padding(top: 10, right: 10, bottom: 10, left: 10))
        #expect(try Self.parse("pd:10:20").padding == ProcessingOptions.Padding(top: 10, right: 20, bottom: 10, left: 20))
        #expect(try Self.parse("pd:1:2:3").padding == ProcessingOptions.Padding(top: 1, right: 2, bottom: 3, left: 2))
        #expect(try Self.parse("padding:1:2:3:4").padding == ProcessingOptions.Padding(top: 1, right: 2, bottom: 3, left: 4))
        let zoomed = try Self.parse("z:1.5"), each = try Self.parse("zoom:2:0.5")
        #expect(zoomed.zoomX == 1.5 && zoomed.zoomY == 1.5 && each.zoomX == 2 && each.zoomY == 0.5)
        #expect(try Self.parse("mw:100/min-height:50").minHeight == 50)
        #expect(try Self.parse("pix:8").pixelate == 8)
        for bad in ["wm:1:ce:0:0:1.5", "wm:2", "wm:0.5:re:0:0:0:9", "pd:-1", "pd:1:2:3:4:5", "z:0", "z:-1", "z:1:2:3", "ex:maybe", "exar:1:up", "mw:-3", "pix:-1"] {
            #expect(Self.status(bad) == 400, "\(bad)")
        }
    }

    /// imgproxy's `default` preset applies before the URL's options; presets-only mode reads one segment of
    /// preset names, whatever it holds.
    @Test func defaultPresetAndPresetsOnlyMode() throws {
        let presets = ["default": "q:70/w:20", "thumb": "rs:fill:300:300", "sharp": "sh:1"]
        var options = ProcessingOptions()
        try OptionsParser(presets: presets).apply(["w:10"], to: &options)
        #expect(options.quality == 70 && options.width == 10)
        let parser = OptionsParser(presets: presets, onlyPresets: true)
        let path = try ProxyPath("/_/thumb:sharp/plain/http%3A%2F%2Fa.test%2Fx.jpg", onlyPresets: true)
        #expect(path.optionSegments == ["thumb:sharp"] && path.source == "http://a.test/x.jpg")
        options = ProcessingOptions()
        try parser.apply(path.optionSegments, to: &options)
        #expect(options.width == 300 && options.sharpen == 1 && options.quality == 70)
        #expect(throws: ProxyError.badRequest("unknown preset 'w'")) {
            var plain = ProcessingOptions()
            try parser.apply(["w:10"], to: &plain)
        }
        #expect(throws: ProxyError.badRequest("the path has no source URL")) {
            _ = try ProxyPath("/_/thumb", onlyPresets: true)
        }
        #expect(throws: ProxyError.badRequest("preset 'loop': presets nest deeper than 4 levels")) {
            try OptionsParser(presets: ["loop": "pr:loop"]).validatePresets()
        }
    }

    @Test func presetsExpandInPlaceAndCannotLoop() throws {
        let presets = ["thumb": "rs:fill:300:300/q:80", "loop": "pr:loop", "sharp": "sh:1"]
        let options = try Self.parse("w:10/pr:thumb:sharp/q:90", presets: presets)
        #expect(options.width == 300 && options.quality == 90 && options.sharpen == 1)
        var looping = ProcessingOptions()
        #expect(throws: ProxyError.self) { try OptionsParser(presets: presets).apply(["pr:loop"], to: &looping) }
        #expect(Self.status("preset:missing") == 400)
    }

    @Test(arguments: ["unknown:1", "rs:squash", "w:-1", "w:abc", "w:99999999", "h:1:2", "dpr:0", "dpr:9", "g:up",
                      "g:fp:2:0", "g:fp:0.5", "q:101", "q:-1", "f:pdf", "rot:45", "bg:12345", "bg:1:2", "bg:300:0:0",
                      "el:maybe", "mb:-5", "bl:nan", "sh:-1", "c:", "rs:fit:1:2:3:4:5:6:7:8:9", "exp:-1",
                      "g:ce:1:2:3", "fl:1:1:1", "fq:webp", "fq:webp:101", "fq:pdf:50", "ar:maybe"])
    func badOptionsAreBadRequests(text: String) {
        #expect(Self.status(text) == 400)
    }
}
