import Testing
import WebImage
@testable import WebImageServer

/// imgproxy reads `IMGPROXY_PNG_QUANTIZATION_COLORS` as a palette bit depth: the palette holds up to 2, 4, 16 or
/// 256 colours.
struct PNGQuantizationColorsTests {
    @Test(arguments: [(2, 2), (3, 4), (4, 4), (5, 16), (16, 16), (17, 256), (100, 256), (256, 256)])
    func colorsAreReadAsABitDepth(colors: Int, palette: Int) {
        var processing = ImageProxyConfiguration.Processing()
        processing.pngQuantizes = true
        processing.pngQuantizationColors = colors
        #expect(processing.encodingDefaults.tuning.pngQuantizeColors == palette)
        processing.pngQuantizes = false
        #expect(processing.encodingDefaults.tuning.pngQuantizeColors == nil)
    }
}
