import Testing
import WebImage
@testable import WebImageDemo

/// The demo's pieces that need no codec: the scene, pixel comparison, the bitmap font, canvas and contact sheet.
@Suite struct DemoPartsTests {
    @Test func sceneImages() {
        let photo = DemoScene.photo(width: 64, height: 48)
        #expect(photo.pixelSize == PixelSize(width: 64, height: 48))
        #expect(!photo.hasAlpha && !photo.pixels.containsTransparency)
        let faded = DemoScene.photoWithAlpha(width: 64, height: 48)
        #expect(faded.hasAlpha)
        #expect(faded.pixels.rgba8(x: 0, y: 0)[3] == 0)
        #expect(faded.pixels.rgba8(x: 32, y: 24)[3] == 255)
        let animation = DemoScene.animation()
        #expect(animation.frameCount == 12 && animation.loopCount == 0 && animation.hasAlpha)
        #expect(animation.frameDurations == Array(repeating: 0.08, count: 12))
        #expect(animation.frames[0].pixels != animation.frames[1].pixels)
        // The same picture on every run.
        #expect(DemoScene.photo(width: 64, height: 48).pixels == photo.pixels)
    }

    @Test func caseListCoversEveryFormat() {
        let cases = DemoCase.all(photo: DemoScene.photo(width: 8, height: 8),
                                 photoWithAlpha: DemoScene.photoWithAlpha(width: 8, height: 8),
                                 animation: DemoScene.animation(frameCount: 2, width: 8, height: 8))
        #expect(Set(cases.map(\.format)) == [.jpeg, .png, .gif, .webp])
        #expect(Set(cases.map(\.fileName)).count == cases.count)
        #expect(cases.filter { $0.source.isAnimated }.map(\.format) == [.png, .gif, .webp])
    }

    @Test func pixelComparison() {
        let a = PixelBuffer(width: 2, height: 1, bytes: [10, 20, 30, 255, 99, 99, 99, 0])
        let hiddenColourDiffers = PixelBuffer(width: 2, height: 1, bytes: [10, 20, 30, 255, 1, 2, 3, 0])
        let visibleDiffers = PixelBuffer(width: 2, height: 1, bytes: [11, 20, 30, 255, 99, 99, 99, 0])
        #expect(PixelComparison.isLossless(a, hiddenColourDiffers))
        #expect(!PixelComparison.isLossless(a, visibleDiffers))
        #expect(PixelComparison.psnr(a, hiddenColourDiffers) == .infinity)
        // One sample off by 1 out of 8: MSE 1/8 → 10·log10(65025 · 8) ≈ 57.16 dB.
        #expect(abs(PixelComparison.psnr(a, visibleDiffers) - 57.162) < 0.01)
        #expect(PixelComparison.psnr(a, PixelBuffer(width: 1, height: 1)) == 0)
    }

    @Test func fontHasFiveBySevenGlyphs() {
        for character in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,:-_/%<>=()?" {
            let glyph = BitmapFont.glyph(for: character)
            #expect(glyph.count == 7, "\(character)")
            #expect(glyph.allSatisfy { $0 < 32 }, "\(character)")
        }
        #expect(BitmapFont.glyph(for: "a") == BitmapFont.glyph(for: "A"))
        #expect(BitmapFont.glyph(for: "x") != BitmapFont.glyph(for: "X"))
        #expect(BitmapFont.glyph(for: "€") == BitmapFont.glyph(for: "?"))
        #expect(BitmapFont.capacity(width: 160) == 26)
    }

    @Test func fontDrawsInkWhereTheGlyphSays() {
        var canvas = Canvas(width: 12, height: 7, background: RGB(red: 255, green: 255, blue: 255))
        BitmapFont.draw("I-", into: &canvas, x: 0, y: 0, color: RGB(red: 0, green: 0, blue: 0))
        let pixels = canvas.pixels
        // "I": top row 01110 → columns 1…3 inked; "-": middle row at x 6…10.
        #expect(pixels.rgba8(x: 0, y: 0) == [255, 255, 255, 255])
        #expect(pixels.rgba8(x: 1, y: 0) == [0, 0, 0, 255])
        #expect(pixels.rgba8(x: 2, y: 3) == [0, 0, 0, 255])
        #expect(pixels.rgba8(x: 6, y: 3) == [0, 0, 0, 255])
        #expect(pixels.rgba8(x: 6, y: 2) == [255, 255, 255, 255])
    }

    @Test func canvasBlendsStraightAlpha() {
        var canvas = Canvas(width: 2, height: 1, background: RGB(red: 0, green: 0, blue: 0))
        canvas.paste(PixelBuffer(width: 2, height: 1, bytes: [255, 255, 255, 255, 255, 0, 0, 128]), x: 0, y: 0)
        #expect(canvas.pixels.bytes == [255, 255, 255, 255, 128, 0, 0, 255])
    }

    @Test func contactSheetLayout() {
        let thumbnail = PixelBuffer(width: 160, height: 107,
                                    bytes: Array([[UInt8]](repeating: [90, 90, 90, 255], count: 160 * 107).joined()))
        let cells = (0..<5).map { ContactSheet.Cell(thumbnail: thumbnail, label: ["cell \($0)", "160x107"]) }
        let sheet = ContactSheet.render(cells)
        // 6 columns of (160 + 12) + 12; 1 row of (120 + 22 + 12) + 12.
        #expect(sheet.size == PixelSize(width: 1044, height: 166))
        #expect(!sheet.containsTransparency)
        // Rows 0…6 of the first box are checkerboard above the centred 107-row thumbnail.
        #expect(sheet.rgba8(x: 12, y: 12) == [255, 255, 255, 255])
        #expect(sheet.rgba8(x: 12 + 80, y: 12 + 60) == [90, 90, 90, 255])
        #expect(ContactSheet.render(cells + cells).size == PixelSize(width: 1044, height: 320))
        #expect(ContactSheet.render([]).size == PixelSize(width: 1044, height: 166))
    }

    @Test func tableHasAHeaderAndARowPerRecord() {
        var good = DemoRecord(step: "photo jpeg q0.9", file: "photo-q90.jpg", format: "jpeg")
        good.width = 640; good.height = 480; good.frames = 1; good.bytes = 1234
        good.encodeMs = 12.34; good.decodeMs = 5; good.thumbnailMs = 1.25; good.fidelity = "38.2 dB"; good.ok = true
        good.progressiveUpdates = 7
        let bad = DemoRecord(step: "animation gif", file: "animation.gif", format: "gif")
        let lines = DemoTable.render([good, bad]).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("what"))
        #expect(lines[1].split(separator: " ", omittingEmptySubsequences: true) ==
                ["photo", "jpeg", "q0.9", "jpeg", "640x480", "1", "1234", "12.3", "5.0", "1.3", "7", "-", "-", "-", "ok",
                 "(38.2", "dB)"])
        #expect(lines[2].hasSuffix("FAILED"))
    }
}
