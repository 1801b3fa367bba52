import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's text watermark drawn by pango: default style, markup, and the bounds hostile markup meets.
/// Glyph shapes depend on the fonts fontconfig finds (DejaVu here), so the drawings are compared with each other
/// rather than with fixed sizes.
@Suite struct TextWatermarkTests {
    static let limits = TextWatermark.Limits(maxSide: 4096, maxPixels: 4096 * 4096)

    static func render(_ markup: String, limits: TextWatermark.Limits = limits) throws(ProxyError) -> PixelBuffer {
        try TextWatermark.render(markup: markup, limits: limits)
    }

    /// The 400 `markup` is refused with, or nil when it renders.
    static func refusal(_ markup: String, limits: TextWatermark.Limits = limits) -> ProxyError? {
        do {
            _ = try render(markup, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func pixels(_ buffer: PixelBuffer) -> [[UInt8]] {
        (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer.rgba8(x: x, y: y) } }
    }

    @Test func plainTextIsBlackOnTransparent() throws {
        let image = try Self.render("Hello")
        #expect(image.format == .rgba8)
        #expect(image.width > 20 && image.height > 10)
        let all = Self.pixels(image)
        // Every drawn pixel, edges included, is black once unpremultiplied.
        #expect(all.allSatisfy { $0[3] == 0 ? $0 == [0, 0, 0, 0] : $0[0...2] == [0, 0, 0] })
        #expect(all.filter { $0 == [0, 0, 0, 255] }.count > 30)
        for (x, y) in [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)] {
            #expect(image.rgba8(x: x, y: y) == [0, 0, 0, 0])
        }
    }

    @Test func theDefaultFontIsSans16At72DPI() throws {
        let plain = try Self.render("Hello")
        #expect(plain == (try Self.render("<span font=\"sans 16\">Hello</span>")))
        #expect(plain == (try Self.render("<span size=\"16384\">Hello</span>")))
        // 72 DPI: a point is a pixel, so sans 16's line is about 16 × 1.2 pixels high.
        #expect((17...22).contains(plain.height))
    }

    @Test func largerSizesDrawLarger() throws {
        let plain = try Self.render("Hello")
        let large = try Self.render("<span size=\"x-large\">Hello</span>")
        #expect(large.width > plain.width && large.height > plain.height)
        // x-large is 1.2² times medium.
        #expect(abs(Double(large.height) / Double(plain.height) - 1.44) < 0.1)
        let doubled = try Self.render("<span font=\"sans 32\">Hello</span>")
        #expect(abs(Double(doubled.width) / Double(plain.width) - 2) < 0.15)
    }

    @Test func foregroundColourIsDrawn() throws {
        let all = Self.pixels(try Self.render("<span foreground=\"red\">Hello</span>"))
        #expect(all.filter { $0 == [255, 0, 0, 255] }.count > 30)
        #expect(all.allSatisfy { $0[3] == 0 || $0[0...2] == [255, 0, 0] })
    }

    @Test func invalidMarkupIsPangosMessage() {
        #expect(Self.refusal("<span foo=\"1\">x</span>") == .badRequest(
            "watermark_text: invalid Pango markup: Attribute 'foo' is not allowed on the <span> tag on line 1 char 23"))
        let unclosed = Self.refusal("<b>unclosed")?.message ?? ""
        #expect(unclosed.hasPrefix("watermark_text: invalid Pango markup: Error on line 1"))
        #expect(unclosed.contains("“b”"))
    }

    @Test func emptyTextIsRefused() {
        #expect(Self.refusal("") == .badRequest("watermark_text: no text to draw"))
        #expect(Self.refusal("<b></b>") == .badRequest("watermark_text: no text to draw"))
    }

    @Test func markupOver4096BytesIsRefused() throws {
        #expect(Self.refusal(String(repeating: "é", count: 2049)) ==
                .badRequest("watermark_text: the markup is over 4096 bytes"))
        // 64 lines of 63 letters: 4096 bytes.
        let longest = String(repeating: String(repeating: "a", count: 63) + "\n", count: 64)
        #expect(longest.utf8.count == 4096)
        _ = try Self.render(longest)
    }

    @Test func hugeFontSizesAreRefusedBeforeLayout() {
        let fontSize = ProxyError.badRequest("watermark_text: a font size over 512 pt")
        let started = ContinuousClock.now
        #expect(Self.refusal("<span size=\"1000000\">Hi</span>") == fontSize)
        #expect(Self.refusal("<span size=\"2147483647\">Hi</span>") == fontSize)
        #expect(Self.refusal("<span font=\"sans 100000\">Hi</span>") == fontSize)
        #expect(Self.refusal("<span font=\"sans 100000px\">Hi</span>") == fontSize)
        // 400 pt × 1.2 is within the bound, × 1.44 is not.
        #expect(Self.refusal("<span size=\"400pt\"><big>Hi</big></span>") == nil)
        #expect(Self.refusal("<span size=\"400pt\"><big><big>Hi</big></big></span>") == fontSize)
        // Nested scales: each `<big>` is 1.2 times the one around it.
        let nested = String(repeating: "<big>", count: 20) + "Hi" + String(repeating: "</big>", count: 20)
        #expect(Self.refusal(nested) == fontSize)
        let larger = String(repeating: "<span size=\"larger\">", count: 40) + "Hi"
            + String(repeating: "</span>", count: 40)
        #expect(Self.refusal(larger) == fontSize)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func textThatWouldLayOutTooLargeIsRefusedBeforeLayout() {
        let budget = ProxyError.badRequest("watermark_text: the text would lay out larger than 1048576 pixels")
        #expect(Self.refusal("<span size=\"524288\">" + String(repeating: "W", count: 4000) + "</span>") == budget)
        #expect(Self.refusal("<span letter_spacing=\"1000000000\">ab</span>") == budget)
        #expect(Self.refusal("<span rise=\"-1000000000\">ab</span>") == budget)
        // A line height under 1024 is a factor of the font's.
        #expect(Self.refusal("<span size=\"200pt\" line_height=\"1000\">a\nb</span>") == budget)
        #expect(Self.refusal("<span baseline_shift=\"1000000000\">ab</span>") == budget)
    }

    @Test func textLargerThanTheLimitsIsRefusedBeforeDrawing() throws {
        let plain = try Self.render("Hello")
        let small = TextWatermark.Limits(maxSide: plain.width - 1, maxPixels: 1 << 24)
        #expect(Self.refusal("Hello", limits: small) == .badRequest(
            "watermark_text: the text is \(plain.width)×\(plain.height) pixels, over the limit of "
                + "\(plain.width - 1) a side and 16777216 pixels"))
        let few = TextWatermark.Limits(maxSide: 4096, maxPixels: plain.width * plain.height - 1)
        #expect(Self.refusal("Hello", limits: few) != nil)
        // 200 pt letters 1000 pt apart, 6 of them: well within pango's range, beyond a 4096-pixel side.
        #expect(Self.refusal("<span size=\"204800\" letter_spacing=\"1024000\">WWWWWW</span>")?.message
                    .hasPrefix("watermark_text: the text is ") == true)
    }

    /// GMarkup has no external entities: a DOCTYPE naming a file is skipped unread, an entity it would declare
    /// is unknown.
    @Test func markupReadsNoFile() throws {
        let skipped = try Self.render("<!DOCTYPE x SYSTEM \"file:///etc/passwd\"><span>ok</span>")
        #expect(skipped == (try Self.render("ok")))
        let unknown = ProxyError.badRequest("watermark_text: invalid Pango markup: Error on line 1: "
                                            + "Entity name “xxe” is not known")
        #expect(Self.refusal("<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>&xxe;") == unknown)
        #expect(Self.refusal("&xxe;") == unknown)
        // The text ends at a NUL, as a C string does.
        #expect(try Self.render("a\u{0}b") == (try Self.render("a")))
    }

    /// Each render has its own pango context on its thread's font map: concurrent renders draw the same pixels.
    @Test func concurrentRendersAgree() async throws {
        let markup = "<span foreground=\"#0000ff\">Concurrent <b>text</b></span>"
        let expected = try Self.render(markup)
        let results = await withTaskGroup(of: PixelBuffer?.self) { group in
            for _ in 0..<16 { group.addTask { try? Self.render(markup) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }
}
