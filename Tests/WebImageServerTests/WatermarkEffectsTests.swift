import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's watermark rotation and shadow on small synthetic rasters.
@Suite struct WatermarkEffectsTests {
    static func raster(_ width: Int, _ height: Int, _ pixels: [[UInt8]]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: pixels.flatMap { $0 })
    }

    static func square(_ side: Int, _ pixel: [UInt8]) -> PixelBuffer {
        raster(side, side, Array(repeating: pixel, count: side * side))
    }

    static func pixels(_ buffer: PixelBuffer) -> [[UInt8]] {
        #expect(buffer.format == .rgba8)
        return (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer.rgba8(x: x, y: y) } }
    }

    // a b c
    // d e f
    static let (a, b, c): ([UInt8], [UInt8], [UInt8]) = ([1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12])
    static let (d, e, f): ([UInt8], [UInt8], [UInt8]) = ([13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 255])
    static let grid = raster(3, 2, [a, b, c, d, e, f])

    @Test func quarterTurnsAreExactAndClockwise() {
        let turned = WatermarkEffects.rotated(Self.grid, degrees: 90)
        #expect(turned.size == PixelSize(width: 2, height: 3))
        #expect(Self.pixels(turned) == [Self.d, Self.a, Self.e, Self.b, Self.f, Self.c])
        #expect(Self.pixels(WatermarkEffects.rotated(Self.grid, degrees: 180)) ==
                [Self.f, Self.e, Self.d, Self.c, Self.b, Self.a])
        let anticlockwise = [Self.c, Self.f, Self.b, Self.e, Self.a, Self.d]
        #expect(Self.pixels(WatermarkEffects.rotated(Self.grid, degrees: 270)) == anticlockwise)
        #expect(Self.pixels(WatermarkEffects.rotated(Self.grid, degrees: -90)) == anticlockwise)
        #expect(Self.pixels(WatermarkEffects.rotated(Self.grid, degrees: 450)) == Self.pixels(turned))
        #expect(WatermarkEffects.rotated(Self.grid, degrees: 0) == Self.grid)
        #expect(WatermarkEffects.rotated(Self.grid, degrees: -720) == Self.grid)
        #expect(WatermarkEffects.rotated(Self.grid, degrees: .nan) == Self.grid)
    }

    @Test func fortyFiveDegreesGrowsToTheRotatedBoundingBox() {
        let turned = WatermarkEffects.rotated(Self.square(10, [200, 100, 50, 255]), degrees: 45)
        // 10 × (cos 45° + sin 45°) = 14.14…, rounded up.
        #expect(turned.size == PixelSize(width: 15, height: 15))
        for (x, y) in [(0, 0), (14, 0), (0, 14), (14, 14), (2, 2), (12, 12)] {
            #expect(turned.rgba8(x: x, y: y) == [0, 0, 0, 0])
        }
        for (x, y) in [(7, 7), (7, 2), (2, 7), (12, 7), (7, 12)] {
            #expect(turned.rgba8(x: x, y: y) == [200, 100, 50, 255])
        }
        // 30°: 10 × (cos 30° + sin 30°) = 13.66…; 60° of 3 × 1: 3 cos 60° + sin 60° = 2.37… wide,
        // 3 sin 60° + cos 60° = 3.10… high.
        #expect(WatermarkEffects.rotated(Self.square(10, [0, 0, 0, 255]), degrees: 30).size ==
                PixelSize(width: 14, height: 14))
        #expect(WatermarkEffects.rotated(Self.raster(3, 1, [Self.a, Self.b, Self.c]), degrees: 60).size ==
                PixelSize(width: 3, height: 4))
    }

    /// Sampled on premultiplied colour: the edges fade out in alpha only, the colour stays.
    @Test func rotatedEdgesHaveNoDarkFringe() {
        let turned = Self.pixels(WatermarkEffects.rotated(Self.square(10, [255, 255, 255, 255]), degrees: 30))
        let edges = turned.filter { $0[3] > 0 && $0[3] < 255 }
        #expect(edges.count > 10)
        #expect(turned.allSatisfy { $0[3] == 0 ? $0 == [0, 0, 0, 0] : $0[0...2] == [255, 255, 255] })
    }

    /// A bar red on the left, blue on the right: turned clockwise its left end rises, anticlockwise it drops.
    @Test func positiveAnglesTurnClockwise() {
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let bar = Self.raster(10, 2, (0..<20).map { $0 % 10 < 3 ? red : blue })
        func rows(_ degrees: Double) -> (red: Double, blue: Double) {
            let turned = WatermarkEffects.rotated(bar, degrees: degrees)
            var sums = (red: 0.0, redCount: 0.0, blue: 0.0, blueCount: 0.0)
            for y in 0..<turned.height {
                for x in 0..<turned.width {
                    let p = turned.rgba8(x: x, y: y)
                    guard p[3] == 255 else { continue }
                    if p[0] > 200 { sums.red += Double(y); sums.redCount += 1 }
                    if p[2] > 200 { sums.blue += Double(y); sums.blueCount += 1 }
                }
            }
            return (sums.red / sums.redCount, sums.blue / sums.blueCount)
        }
        let clockwise = rows(30), anticlockwise = rows(-30)
        #expect(clockwise.red < clockwise.blue)
        #expect(anticlockwise.red > anticlockwise.blue)
    }

    @Test func shadowGrowsTheCanvasAndDarkensAroundTheOpaquePixels() {
        let red: [UInt8] = [255, 0, 0, 255]
        let shadowed = WatermarkEffects.shadowed(Self.square(10, red), sigma: 2)
        // ⌈3σ⌉ = 6 on each side.
        #expect(shadowed.size == PixelSize(width: 22, height: 22))
        for y in 6..<16 {
            for x in 6..<16 { #expect(shadowed.rgba8(x: x, y: y) == red) }
        }
        let all = Self.pixels(shadowed)
        // Outside the watermark: black, translucent, fading away from it and the same on every side.
        #expect(all.allSatisfy { $0 == red || $0[0...2] == [0, 0, 0] })
        let near = shadowed.rgba8(x: 5, y: 11), far = shadowed.rgba8(x: 2, y: 11)
        #expect(near[3] > far[3] && near[3] > 0 && near[3] < 255)
        for (x, y) in [(16, 11), (11, 5), (11, 16)] { #expect(shadowed.rgba8(x: x, y: y) == near) }
        #expect(shadowed.rgba8(x: 0, y: 0) == [0, 0, 0, 0])
    }

    @Test func shadowShowsUnderTranslucentPixels() {
        let shadowed = WatermarkEffects.shadowed(Self.square(4, [255, 255, 255, 128]), sigma: 0.5)
        #expect(shadowed.size == PixelSize(width: 8, height: 8))
        // sigma 0.5 is below the blur's smallest box: the shadow is the alpha itself, white at half over black
        // at half.
        let centre = shadowed.rgba8(x: 3, y: 3)
        #expect(centre[3] == 191)
        #expect(centre[0] == centre[1] && centre[1] == centre[2] && centre[0] < 255 && centre[0] > 128)
    }

    @Test func shadowSigmaIsClamped() {
        let mark = Self.square(2, [0, 0, 0, 255])
        #expect(WatermarkEffects.shadowed(mark, sigma: 0) == mark)
        #expect(WatermarkEffects.shadowed(mark, sigma: -3) == mark)
        #expect(WatermarkEffects.shadowed(mark, sigma: .nan) == mark)
        #expect(WatermarkEffects.shadowed(mark, sigma: 1000).size == PixelSize(width: 602, height: 602))
        #expect(WatermarkEffects.shadowed(mark, sigma: .infinity).size == PixelSize(width: 602, height: 602))
    }
}
