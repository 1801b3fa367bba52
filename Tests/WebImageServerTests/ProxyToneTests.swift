import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's colour and tone options over real HTTP, with pixel probes on the fixture photo (PNG results,
/// so the probes read exactly what the step wrote).
@Suite struct ProxyToneTests {
    static func answer(_ options: String) async throws -> Image { try await ProxyCanvasTests.answer(options) }

    /// Every pixel's RGB, row by row.
    static func rgb(_ image: Image) -> [[UInt8]] {
        (0..<image.pixelSize.height).flatMap { y in
            (0..<image.pixelSize.width).map { x in Array(image.pixels.rgba8(x: x, y: y).prefix(3)) }
        }
    }

    @Test func brightnessContrastAndSaturation() async throws {
        let plain = Self.rgb(try await Self.answer("w:64"))
        let brighter = Self.rgb(try await Self.answer("w:64/br:40"))
        #expect(zip(plain, brighter).allSatisfy { zip($0, $1).allSatisfy { Int($1) == min(255, Int($0) + 40) } })
        #expect(Self.rgb(try await Self.answer("w:64/a:40")) == brighter, "adjust's first argument is brightness")
        let flat = Self.rgb(try await Self.answer("w:64/co:0"))
        #expect(flat.allSatisfy { $0 == [128, 128, 128] })
        let grey = Self.rgb(try await Self.answer("w:64/sa:0"))
        #expect(grey.allSatisfy { $0.max()! - $0.min()! <= 1 })
        #expect(Self.rgb(try await Self.answer("w:64/a::1:0")) == grey, "adjust's third argument is saturation")
    }

    @Test func monochromeAndDuotone() async throws {
        let plain = Self.rgb(try await Self.answer("w:64"))
        let red = Self.rgb(try await Self.answer("w:64/mc:1:f00"))
        #expect(zip(plain, red).allSatisfy { pixel, mono in
            mono[1] == 0 && mono[2] == 0 && mono[0] == ToneAdjustment.luma(red: pixel[0], green: pixel[1], blue: pixel[2])
        })
        let luma = Self.rgb(try await Self.answer("w:64/dt:1"))
        #expect(zip(plain, luma).allSatisfy { pixel, duo in
            duo == Array(repeating: ToneAdjustment.luma(red: pixel[0], green: pixel[1], blue: pixel[2]), count: 3)
        })
        #expect(Self.rgb(try await Self.answer("w:64/mc:0:f00")) == plain, "intensity 0 is off")
    }

    /// Over the padded canvas: transparent padding takes the colour at the opacity, unless `keep_alpha`.
    @Test func colorizeCoversThePaddedResult() async throws {
        let tinted = try await Self.answer("w:64/pd:4/col:1:00ff00")
        #expect(tinted.pixels.rgba8(x: 1, y: 1) == [0, 255, 0, 255])
        #expect(tinted.pixels.rgba8(x: 30, y: 20) == [0, 255, 0, 255])
        let kept = try await Self.answer("w:64/pd:4/col:0.5:00ff00:1")
        #expect(kept.pixels.rgba8(x: 1, y: 1)[3] == 0)
        let plain = try await Self.answer("w:64/pd:4")
        let before = Double(plain.pixels.rgba8(x: 30, y: 20)[1])
        let after = kept.pixels.rgba8(x: 30, y: 20)[1]
        #expect(Double(after) == (before + (255 - before) * 0.5).rounded())
    }

    @Test func gradientRunsInItsDirection() async throws {
        let plain = try await Self.answer("w:64")
        let down = try await Self.answer("w:64/gr:1")
        let last = plain.pixelSize.height - 1
        #expect(down.pixels.rgba8(x: 10, y: 0) == plain.pixels.rgba8(x: 10, y: 0))
        #expect(down.pixels.rgba8(x: 10, y: last) == [0, 0, 0, 255])
        let right = try await Self.answer("w:64/gr:1:fff:right")
        #expect(right.pixels.rgba8(x: 0, y: 10) == plain.pixels.rgba8(x: 0, y: 10))
        #expect(right.pixels.rgba8(x: 63, y: 10) == [255, 255, 255, 255])
        let degrees = try await Self.answer("w:64/gr:1:fff:270")
        #expect(degrees.pixels == right.pixels, "right is 270°")
    }

    @Test(arguments: [
        ("br:256", "br takes a whole number from -255 to 255, not '256'"),
        ("co:-1", "co takes a number from 0.0 to 100.0, not '-1'"),
        ("sa:1e9", "sa takes a number from 0.0 to 100.0, not '1e9'"),
        ("mc:2", "mc takes a number from 0.0 to 1.0, not '2'"),
        ("dt:1:12345", "dt takes a colour as RRGGBB or RGB in hex, not '12345'"),
        ("col:1:red", "col takes a colour as RRGGBB or RGB in hex, not 'red'"),
        ("gr:1:000:sideways", "gradient's direction is down, up, left, right or degrees (-3600 to 3600), not 'sideways'"),
        ("gr:1:000:down:0:2", "gr takes a number from 0.0 to 1.0, not '2'"),
        ("a:1:2:3:4", "a takes 1–3 arguments, not 4"),
    ])
    func badArgumentsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }

    /// imgproxy reads colours as 6 or 3 hex digits, each of 3 doubled, background and trim's included.
    @Test func shortHexColours() throws {
        var options = ProcessingOptions()
        try OptionsParser().apply(["bg:f80", "t:10:0a0"], to: &options)
        #expect(options.background == RGBAColor(red: 0xFF, green: 0x88, blue: 0x00))
        #expect(options.trim?.color == RGBAColor(red: 0x00, green: 0xAA, blue: 0x00))
    }
}
