import Testing
import WebImage
@testable import WebImageServer

/// `trim`'s box, found as imgproxy and libvips find it: flattened onto magenta, a 3×3 median, the threshold in
/// red, green or blue.
@Suite struct TrimBoxTests {
    /// `width × height` of `fill`, with `paint` deciding the colour of some pixels.
    static func raster(_ width: Int, _ height: Int, _ fill: [UInt8],
                       paint: (Int, Int) -> [UInt8]? = { _, _ in nil }) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let colour = paint(x, y) ?? fill, i = (y * width + x) * 4
                    (out[i], out[i + 1], out[i + 2], out[i + 3]) = (colour[0], colour[1], colour[2], colour[3])
                }
            }
        }
    }

    static let white: [UInt8] = [255, 255, 255, 255], red: [UInt8] = [255, 0, 0, 255]
    static let trim = ProcessingOptions.Trim(threshold: 10)

    /// A lone dark pixel in the border is noise to the median; the red square is not.
    @Test func loneNoisyPixelsDoNotWidenTheBox() {
        let pixels = Self.raster(50, 40, Self.white) { x, y in
            if x == 5 && y == 5 { return [0, 0, 0, 255] }
            return (20..<30).contains(x) && (15..<25).contains(y) ? Self.red : nil
        }
        #expect(TrimBox.find(in: pixels, trim: Self.trim) == PixelRect(x: 20, y: 15, width: 10, height: 10))
    }

    /// Every pixel border: nothing to cut (imgproxy leaves the image as it is).
    @Test func anAllBorderImageHasNoBox() {
        #expect(TrimBox.find(in: Self.raster(20, 10, Self.white), trim: Self.trim) == nil)
        let redBorder = ProcessingOptions.Trim(threshold: 10, color: RGBAColor(red: 255, green: 0, blue: 0))
        #expect(TrimBox.find(in: Self.raster(20, 10, Self.white), trim: redBorder) == PixelRect(x: 0, y: 0, width: 20, height: 10))
    }

    /// Transparent pixels of any colour are the same magenta once flattened, and a differing alpha alone makes
    /// a half-transparent pixel differ from it.
    @Test func transparencyIsFlattenedOntoMagenta() {
        let pixels = Self.raster(30, 30, [0, 255, 0, 0]) { x, y in
            if y == 0 && x < 15 { return [0, 0, 255, 0] }
            return (10..<20).contains(x) && (12..<22).contains(y) ? [255, 0, 255, 128] : nil
        }
        // Magenta at half opacity over magenta is magenta: nothing but border.
        #expect(TrimBox.find(in: pixels, trim: Self.trim) == nil)
        let blue = Self.raster(30, 30, [0, 255, 0, 0]) { x, y in
            (10..<20).contains(x) && (12..<22).contains(y) ? [0, 0, 255, 255] : nil
        }
        #expect(TrimBox.find(in: blue, trim: Self.trim) == PixelRect(x: 10, y: 12, width: 10, height: 10))
    }
}
