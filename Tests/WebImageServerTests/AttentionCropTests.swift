import Testing
import WebImage
@testable import WebImageServer

/// Smart gravity's crop position on synthetic images whose interesting part is known. The grid is 32 cells a
/// side, so features are drawn at least two cells large (finer texture averages away, in libvips too). Each
/// exact origin below is also what pyvips 8.18.7's `smartcrop(interesting: attention)` gives for the image.
@Suite struct AttentionCropTests {
    /// A grey canvas to paint rectangles on, straight RGBA8.
    struct Canvas {
        let width: Int, height: Int
        var bytes: [UInt8]

        init(width: Int, height: Int, grey: UInt8 = 128) {
            self.width = width
            self.height = height
            bytes = [UInt8](repeating: grey, count: width * height * 4)
            for i in stride(from: 3, to: bytes.count, by: 4) { bytes[i] = 255 }
        }

        mutating func fill(_ rect: PixelRect, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in rect.y..<rect.y + rect.height {
                for x in rect.x..<rect.x + rect.width {
                    let i = (y * width + x) * 4
                    (bytes[i], bytes[i + 1], bytes[i + 2]) = rgb
                }
            }
        }

        /// Black and white squares of `square` pixels over `rect`: strong edges at the grid's scale.
        mutating func checker(_ rect: PixelRect, square: Int) {
            for y in rect.y..<rect.y + rect.height {
                for x in rect.x..<rect.x + rect.width {
                    let level: UInt8 = ((x - rect.x) / square + (y - rect.y) / square) % 2 == 0 ? 0 : 255
                    let i = (y * width + x) * 4
                    (bytes[i], bytes[i + 1], bytes[i + 2]) = (level, level, level)
                }
            }
        }

        var pixels: PixelBuffer { PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes) }
    }

    /// Whether the crop at `origin` of `box` holds all of `feature`.
    static func contains(_ origin: (x: Int, y: Int), _ box: PixelSize, _ feature: PixelRect) -> Bool {
        origin.x <= feature.x && origin.x + box.width >= feature.x + feature.width
            && origin.y <= feature.y && origin.y + box.height >= feature.y + feature.height
    }

    static let patch = PixelRect(x: 400, y: 260, width: 160, height: 160)

    @Test func cropHoldsTheOneTexturedPatch() {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(Self.patch, square: 40)
        let box = PixelSize(width: 240, height: 240)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(Self.contains(origin, box, Self.patch), "\(origin)")
        #expect(origin == (360, 195))
    }

    @Test func cropHoldsTheSkinTonedBlob() {
        // The grey has the skin colour's luminance, so only the colour tells the blob apart.
        var canvas = Canvas(width: 600, height: 400, grey: 183)
        let blob = PixelRect(x: 60, y: 220, width: 120, height: 120)
        canvas.fill(blob, (224, 172, 140))
        let box = PixelSize(width: 200, height: 200)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        // Only containment: the flat blob blurs to a plateau whose near-ties pyvips breaks two cells lower (12, 187).
        #expect(Self.contains(origin, box, blob), "\(origin)")
    }

    @Test func cropHoldsTheSaturatedObject() {
        var canvas = Canvas(width: 800, height: 500, grey: 127)
        let object = PixelRect(x: 500, y: 50, width: 150, height: 100)
        canvas.fill(object, (255, 0, 0))
        let box = PixelSize(width: 250, height: 250)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(Self.contains(origin, box, object), "\(origin)")
        #expect(origin == (425, 0))
    }

    /// A red square three cells wide, centred on cell (21, 11) of a 256×256 image (8-pixel cells): the crop is
    /// centred on that cell's top-left corner, (168, 88).
    @Test func cropIsCentredOnTheBestCellsCorner() {
        var canvas = Canvas(width: 256, height: 256, grey: 127)
        canvas.fill(PixelRect(x: 160, y: 80, width: 24, height: 24), (255, 0, 0))
        let origin = AttentionCrop.origin(of: PixelSize(width: 64, height: 64), in: canvas.pixels)
        #expect(origin == (136, 56))
    }

    @Test(arguments: [(0, 0), (1, 0), (0, 1), (1, 1)])
    func patchInACornerPinsTheCropToIt(right: Int, bottom: Int) {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(PixelRect(x: right * 480, y: bottom * 320, width: 160, height: 160), square: 40)
        let box = PixelSize(width: 320, height: 240)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(origin == (right * 320, bottom * 240))
    }

    @Test func boxAsWideAsTheImageStaysAtTheLeft() {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(Self.patch, square: 40)
        let box = PixelSize(width: 640, height: 200)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(origin == (0, 230))
        #expect(Self.contains(origin, box, Self.patch), "\(origin)")
    }

    @Test func boxAsTallAsTheImageStaysAtTheTop() {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(Self.patch, square: 40)
        let box = PixelSize(width: 200, height: 480)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(origin == (380, 0))
        #expect(Self.contains(origin, box, Self.patch), "\(origin)")
    }

    @Test func boxTheSizeOfTheImageOrLargerIsAtTheOrigin() {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(Self.patch, square: 40)
        #expect(AttentionCrop.origin(of: PixelSize(width: 640, height: 480), in: canvas.pixels) == (0, 0))
        #expect(AttentionCrop.origin(of: PixelSize(width: 900, height: 700), in: canvas.pixels) == (0, 0))
    }

    @Test func tinyImagesGiveOriginsInside() {
        let one = Canvas(width: 1, height: 1).pixels
        #expect(AttentionCrop.origin(of: PixelSize(width: 1, height: 1), in: one) == (0, 0))
        // Smaller than the grid: enlarged to it, as libvips does; the white column is the feature.
        var strip = Canvas(width: 5, height: 3, grey: 0)
        strip.fill(PixelRect(x: 4, y: 0, width: 1, height: 3), (255, 255, 255))
        #expect(AttentionCrop.origin(of: PixelSize(width: 2, height: 3), in: strip.pixels) == (3, 0))
    }

    @Test func flatImageGivesTheTopLeftAsLibvipsDoes() {
        let flat = Canvas(width: 300, height: 200).pixels
        #expect(AttentionCrop.origin(of: PixelSize(width: 100, height: 100), in: flat) == (0, 0))
    }

    @Test func transparentAreasCountAsBlack() {
        // Two red squares on black, one under zero alpha: only the visible one counts.
        var canvas = Canvas(width: 640, height: 480, grey: 0)
        let hidden = PixelRect(x: 40, y: 40, width: 120, height: 120)
        canvas.fill(hidden, (255, 0, 0))
        for y in hidden.y..<hidden.y + hidden.height {
            for x in hidden.x..<hidden.x + hidden.width { canvas.bytes[(y * 640 + x) * 4 + 3] = 0 }
        }
        let visible = PixelRect(x: 480, y: 320, width: 120, height: 120)
        canvas.fill(visible, (255, 0, 0))
        let box = PixelSize(width: 200, height: 200)
        let origin = AttentionCrop.origin(of: box, in: canvas.pixels)
        #expect(Self.contains(origin, box, visible), "\(origin)")
    }

    @Test func sixteenBitPixelsGiveTheSameOriginAsEightBit() {
        var canvas = Canvas(width: 640, height: 480)
        canvas.checker(Self.patch, square: 40)
        canvas.fill(PixelRect(x: 60, y: 60, width: 100, height: 80), (230, 160, 120))
        let box = PixelSize(width: 300, height: 200)
        let eight = AttentionCrop.origin(of: box, in: canvas.pixels)
        let sixteen = AttentionCrop.origin(of: box, in: canvas.pixels.converted(to: .rgba16))
        #expect(sixteen == eight)
    }

    @Test func sameInputSameOrigin() {
        var canvas = Canvas(width: 1000, height: 700)
        canvas.checker(PixelRect(x: 120, y: 400, width: 200, height: 200), square: 50)
        canvas.fill(PixelRect(x: 700, y: 100, width: 150, height: 150), (255, 0, 0))
        let box = PixelSize(width: 400, height: 400)
        let first = AttentionCrop.origin(of: box, in: canvas.pixels)
        for _ in 0..<3 { #expect(AttentionCrop.origin(of: box, in: canvas.pixels) == first) }
    }
}
