import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's colour and tone operations on small rasters of known colours.
@Suite struct ToneAdjustmentTests {
    /// A `width × height` RGBA8 raster of `pixels`, row by row.
    static func raster(_ width: Int, _ height: Int, _ pixels: [[UInt8]]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: pixels.flatMap { $0 })
    }

    /// A `count`-pixel row of `pixel`: 1×`count` when `vertical`, else `count`×1.
    static func line(_ count: Int, vertical: Bool, _ pixel: [UInt8] = [255, 255, 255, 255]) -> PixelBuffer {
        raster(vertical ? 1 : count, vertical ? count : 1, Array(repeating: pixel, count: count))
    }

    /// Every pixel as RGBA8, row by row.
    static func pixels(_ buffer: PixelBuffer) -> [[UInt8]] {
        #expect(buffer.format == .rgba8)
        return (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer.rgba8(x: x, y: y) } }
    }

    /// Red only, for the gradients: white under black at the overlay's opacity.
    static func reds(_ buffer: PixelBuffer) -> [UInt8] { pixels(buffer).map { $0[0] } }

    @Test func brightnessAddsToEachColourChannelAndClamps() {
        let image = Self.raster(2, 1, [[10, 128, 250, 200], [0, 0, 0, 0]])
        #expect(Self.pixels(ToneAdjustment.brightness(image, by: 20)) == [[30, 148, 255, 200], [20, 20, 20, 0]])
        #expect(Self.pixels(ToneAdjustment.brightness(image, by: -20)) == [[0, 108, 230, 200], [0, 0, 0, 0]])
        #expect(Self.pixels(ToneAdjustment.brightness(image, by: 300)) == [[255, 255, 255, 200], [255, 255, 255, 0]])
        #expect(Self.pixels(ToneAdjustment.brightness(image, by: 0)) == Self.pixels(image))
    }

    @Test func contrastScalesAroundTheMiddleRoundedAndClamped() {
        let image = Self.raster(2, 1, [[10, 100, 128, 7], [129, 200, 255, 255]])
        #expect(Self.pixels(ToneAdjustment.contrast(image, factor: 2)) == [[0, 72, 128, 7], [130, 255, 255, 255]])
        // (129 − 128) × 0.5 + 128 = 128.5 rounds up.
        #expect(Self.pixels(ToneAdjustment.contrast(image, factor: 0.5)) == [[69, 114, 128, 7], [129, 164, 192, 255]])
        #expect(Self.pixels(ToneAdjustment.contrast(image, factor: 1)) == Self.pixels(image))
    }

    /// Colours and what pyvips 8.18.7 gives for them with `colourspace("lch").linear([1, s, 1], [0, 0, 0])
    /// .colourspace("srgb")` (3 bands; alpha is ours to keep). Over 4,000 random colours and every grey at
    /// s = 0, 0.5, 1.5, 2 and 3 this implementation was at most 1 from pyvips in any channel (about 0.2% of
    /// channels differ: libvips works in `float`), so 1 is the tolerance.
    static let saturationSource: [[UInt8]] = [[200, 50, 50], [30, 120, 200], [90, 200, 60], [128, 128, 128],
                                              [250, 220, 10], [20, 10, 40]]
    static let pyvipsSaturation: [Double: [[UInt8]]] = [
        0: [[107, 107, 107], [118, 118, 118], [177, 177, 177], [128, 128, 128], [220, 220, 220], [16, 16, 16]],
        0.5: [[159, 86, 78], [94, 118, 159], [142, 190, 122], [128, 128, 128], [242, 219, 137], [19, 13, 28]],
        1.5: [[236, 0, 21], [0, 122, 243], [0, 209, 0], [128, 128, 128], [250, 221, 0], [17, 7, 52]],
        2: [[255, 0, 0], [0, 126, 255], [0, 215, 0], [128, 128, 128], [246, 223, 0], [10, 4, 64]],
    ]

    @Test(arguments: [0, 0.5, 1.5, 2] as [Double])
    func saturationMatchesPyvips(factor: Double) throws {
        let alphas: [UInt8] = [255, 128, 0, 255, 64, 200]
        let image = Self.raster(6, 1, zip(Self.saturationSource, alphas).map { $0 + [$1] })
        let result = Self.pixels(ToneAdjustment.saturation(image, factor: factor))
        let expected = try #require(Self.pyvipsSaturation[factor])
        for (index, pixel) in result.enumerated() {
            for channel in 0..<3 {
                #expect(abs(Int(pixel[channel]) - Int(expected[index][channel])) <= 1,
                        "pixel \(index) channel \(channel) at \(factor): \(pixel) vs pyvips \(expected[index])")
            }
            #expect(pixel[3] == alphas[index])
        }
        if factor == 0 {
            for pixel in result { #expect(pixel.prefix(3).max()! - pixel.prefix(3).min()! <= 1, "grey: \(pixel)") }
        }
    }

    @Test func saturationOneLeavesTheImageAsItIs() {
        let image = Self.raster(6, 1, Self.saturationSource.map { $0 + [255] })
        #expect(ToneAdjustment.saturation(image, factor: 1) == image)
    }

    /// The same greys as pyvips 8.18.7's `colourspace("b-w")` (equal on 4,000 random colours and every grey).
    @Test func lumaIsLibvipsBlackAndWhite() {
        let cases: [([UInt8], UInt8)] = [([255, 0, 0], 127), ([0, 255, 0], 220), ([0, 0, 255], 76),
                                         ([128, 128, 128], 128), ([255, 255, 0], 247), ([100, 150, 200], 146),
                                         ([10, 20, 30], 19), ([200, 50, 50], 107), ([0, 0, 0], 0),
                                         ([255, 255, 255], 255)]
        for (colour, grey) in cases {
            #expect(ToneAdjustment.luma(red: colour[0], green: colour[1], blue: colour[2]) == grey, "\(colour)")
        }
    }

    static let greyAndPrimaries = raster(4, 1, [[128, 128, 128, 255], [255, 0, 0, 9], [0, 255, 0, 255], [0, 0, 255, 0]])

    @Test func monochromeScalesLumaByTheColour() {
        // Y × 179 / 255: 128 → 89.85, 127 → 89.15, 220 → 154.43, 76 → 53.35.
        let full = ToneAdjustment.monochrome(Self.greyAndPrimaries, intensity: 1)
        #expect(Self.pixels(full) == [[90, 90, 90, 255], [89, 89, 89, 9], [154, 154, 154, 255], [53, 53, 53, 0]])
        let tinted = ToneAdjustment.monochrome(Self.greyAndPrimaries, intensity: 1,
                                               color: RGBAColor(red: 255, green: 0, blue: 128))
        // Y × (255, 0, 128) / 255 for Y = 128 and 127.
        #expect(Self.pixels(tinted).prefix(2) == [[128, 0, 64, 255], [127, 0, 64, 9]])
        // Half way from red to (89.15, 89.15, 89.15).
        let half = ToneAdjustment.monochrome(Self.greyAndPrimaries, intensity: 0.5)
        #expect(Self.pixels(half)[1] == [172, 45, 45, 9])
        #expect(ToneAdjustment.monochrome(Self.greyAndPrimaries, intensity: 0) == Self.greyAndPrimaries)
        #expect(ToneAdjustment.monochrome(Self.greyAndPrimaries, intensity: 7) == full)
    }

    @Test func duotoneMapsLumaBetweenTheTwoColours() {
        let grey = ToneAdjustment.duotone(Self.greyAndPrimaries, intensity: 1)
        #expect(Self.pixels(grey) == [[128, 128, 128, 255], [127, 127, 127, 9], [220, 220, 220, 255], [76, 76, 76, 0]])
        let dark = RGBAColor(red: 0, green: 0, blue: 128), light = RGBAColor(red: 255, green: 255, blue: 0)
        let image = Self.raster(3, 1, [[255, 0, 0, 255], [0, 0, 0, 255], [255, 255, 255, 40]])
        // Red's Y 127: blue 128 − 128 × 127 / 255 = 64.25.
        #expect(Self.pixels(ToneAdjustment.duotone(image, intensity: 1, dark: dark, light: light))
                == [[127, 127, 64, 255], [0, 0, 128, 255], [255, 255, 0, 40]])
        #expect(Self.pixels(ToneAdjustment.duotone(image, intensity: 0.25, dark: dark, light: light))[1] == [0, 0, 32, 255])
        #expect(ToneAdjustment.duotone(image, intensity: -1, dark: dark, light: light) == image)
    }

    /// Half-transparent blue, transparent, and opaque blue under red at 0.6.
    static let colorizeSource = raster(3, 1, [[0, 0, 255, 128], [0, 0, 0, 0], [0, 0, 255, 255]])
    static let red = RGBAColor(red: 255, green: 0, blue: 0)

    @Test func colorizeCompositesOverTheImage() {
        let result = ColourOverlay.colorize(Self.colorizeSource, opacity: 0.6, color: Self.red, keepAlpha: false)
        // Alpha 0.6 + 128/255 × 0.4 = 0.8008 (204.2); red 255 × 0.6 / 0.8008; blue 255 × 0.2008 / 0.8008.
        #expect(Self.pixels(result) == [[191, 0, 64, 204], [255, 0, 0, 153], [153, 0, 102, 255]])
    }

    @Test func colorizeKeepingAlphaTintsOnlyTheColour() {
        let result = ColourOverlay.colorize(Self.colorizeSource, opacity: 0.6, color: Self.red, keepAlpha: true)
        #expect(Self.pixels(result) == [[153, 0, 102, 128], [153, 0, 0, 0], [153, 0, 102, 255]])
    }

    @Test func colorizeOpacityIsClampedAndScaledByTheColoursAlpha() {
        let full = ColourOverlay.colorize(Self.colorizeSource, opacity: 1, color: Self.red, keepAlpha: false)
        #expect(ColourOverlay.colorize(Self.colorizeSource, opacity: 3, color: Self.red, keepAlpha: false) == full)
        #expect(ColourOverlay.colorize(Self.colorizeSource, opacity: -1, color: Self.red, keepAlpha: false)
                == Self.colorizeSource)
        let halfRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 153)
        #expect(ColourOverlay.colorize(Self.colorizeSource, opacity: 1, color: halfRed, keepAlpha: true)
                == ColourOverlay.colorize(Self.colorizeSource, opacity: 0.6, color: Self.red, keepAlpha: true))
    }

    /// Black at 0.8 over white: 255 × (1 − 0.8 × ramp), so 255, 204, 153, 102, 51 from transparent to opaque.
    static func gradient(_ image: PixelBuffer, direction: String, start: Double = 0, stop: Double = 1) throws -> [UInt8] {
        let angle = try #require(ColourOverlay.gradientAngle(named: direction))
        return reds(ColourOverlay.gradient(image, opacity: 0.8, color: .black, angle: angle, start: start, stop: stop))
    }

    @Test func namedGradientDirectionsFollowImgproxysWording() throws {
        // down: top transparent, bottom opaque; up: the reverse.
        #expect(try Self.gradient(Self.line(5, vertical: true), direction: "down") == [255, 204, 153, 102, 51])
        #expect(try Self.gradient(Self.line(5, vertical: true), direction: "up") == [51, 102, 153, 204, 255])
        // right: the left side transparent, the right side opaque; left: the reverse.
        #expect(try Self.gradient(Self.line(5, vertical: false), direction: "right") == [255, 204, 153, 102, 51])
        #expect(try Self.gradient(Self.line(5, vertical: false), direction: "left") == [51, 102, 153, 204, 255])
        #expect(ColourOverlay.gradientAngle(named: "left") == 90)
        #expect(ColourOverlay.gradientAngle(named: "sideways") == nil)
        // At opacity 1, `right` leaves the leftmost column as it is and makes the rightmost the colour.
        let full = ColourOverlay.gradient(Self.line(5, vertical: false), opacity: 1, color: Self.red, angle: 270,
                                          start: 0, stop: 1)
        #expect(Self.pixels(full).first == [255, 255, 255, 255] && Self.pixels(full).last == [255, 0, 0, 255])
        // Along a direction the image has no extent in, t is 0 throughout: nothing drawn.
        #expect(try Self.gradient(Self.line(5, vertical: true), direction: "right") == [255, 255, 255, 255, 255])
    }

    /// 45° lies between down (0°) and left (90°): the top-right corner transparent, the bottom-left opaque.
    @Test func diagonalGradient() {
        func reds(_ image: PixelBuffer) -> [UInt8] {
            Self.reds(ColourOverlay.gradient(image, opacity: 0.8, color: .black, angle: 45, start: 0, stop: 1))
        }
        #expect(reds(Self.line(5, vertical: false)) == [51, 102, 153, 204, 255])
        #expect(reds(Self.line(5, vertical: true)) == [255, 204, 153, 102, 51])
        let square = Self.raster(3, 3, Array(repeating: [255, 255, 255, 255], count: 9))
        #expect(reds(square) == [153, 204, 255, 102, 153, 204, 51, 102, 153])
    }

    @Test func gradientStartAndStop() throws {
        let column = Self.line(5, vertical: true)
        #expect(try Self.gradient(column, direction: "down", start: 0.25, stop: 0.75) == [255, 255, 153, 51, 51])
        #expect(try Self.gradient(column, direction: "down", start: 0.5, stop: 0.5) == [255, 255, 51, 51, 51])
        // A stop before the start is a step at the start.
        #expect(try Self.gradient(column, direction: "down", start: 0.5, stop: 0.1) == [255, 255, 51, 51, 51])
    }

    @Test func gradientOverTransparencyTakesTheGradientsAlpha() {
        let image = Self.raster(1, 2, [[255, 255, 255, 255], [10, 20, 30, 0]])
        let result = ColourOverlay.gradient(image, opacity: 0.8, color: Self.red, angle: 0, start: 0, stop: 1)
        #expect(Self.pixels(result) == [[255, 255, 255, 255], [255, 0, 0, 204]])
    }

    /// 16-bit input is converted to 8 bits first: the same answer as from its 8-bit twin.
    @Test func sixteenBitInputIsConverted() {
        let eight = Self.raster(2, 2, [[10, 128, 250, 200], [0, 0, 0, 0], [255, 0, 0, 9], [30, 120, 200, 255]])
        let sixteen = eight.converted(to: .rgba16)
        let operations: [(PixelBuffer) -> PixelBuffer] = [
            { ToneAdjustment.brightness($0, by: 20) },
            { ToneAdjustment.contrast($0, factor: 1.5) },
            { ToneAdjustment.saturation($0, factor: 0.5) },
            { ToneAdjustment.monochrome($0, intensity: 0.7) },
            { ToneAdjustment.duotone($0, intensity: 1) },
            { ColourOverlay.colorize($0, opacity: 0.4, color: Self.red, keepAlpha: true) },
            { ColourOverlay.colorize($0, opacity: 0.4, color: Self.red, keepAlpha: false) },
            { ColourOverlay.gradient($0, opacity: 1, color: Self.red, angle: 30, start: 0, stop: 1) },
        ]
        for operation in operations {
            let result = operation(sixteen)
            #expect(result.format == .rgba8)
            #expect(result == operation(eight))
        }
    }
}
