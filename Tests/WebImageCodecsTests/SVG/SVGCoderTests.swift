import Foundation
import Testing
import WebImage

/// ``SVGCoder``: sizes (intrinsic, viewBox, physical units, thumbnails, scale), pixels and errors.
struct SVGCoderTests {
    static func svg(_ attributes: String, _ body: String = "") -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)>\(body)</svg>".utf8)
    }

    static let coder = SVGCoder()

    @Test(arguments: [
        ("width=\"120\" height=\"80\"", 120, 80),
        // No size: the viewBox's (libvips).
        ("viewBox=\"0 0 30 20\"", 30, 20),
        // One side: the other from the viewBox's ratio.
        ("width=\"60\" viewBox=\"0 0 30 20\"", 60, 40),
        ("height=\"10\" viewBox=\"0 0 30 20\"", 15, 10),
        // Physical units at libvips' 72 DPI: 1in = 72 px, 2.54cm = 72 px, 72pt = 72 px.
        ("width=\"1in\" height=\"2.54cm\"", 72, 72),
        ("width=\"72pt\" height=\"6pc\"", 72, 72),
        // Percentages and no viewBox: the drawing's extent.
        ("width=\"100%\" height=\"100%\"", 40, 30),
        // Half a pixel rounds up, as libvips rounds.
        ("width=\"10.5\" height=\"9.4\"", 11, 9),
    ] as [(String, Int, Int)])
    func intrinsicSize(attributes: String, width: Int, height: Int) throws {
        let data = Self.svg(attributes, "<rect x=\"10\" y=\"10\" width=\"40\" height=\"30\" fill=\"red\"/>")
        let header = try Self.coder.header(data)
        #expect(header.pixelSize == PixelSize(width: width, height: height))
        #expect(header.format == .svg && header.hasAlpha && header.frameCount == 1)
        let image = try Self.coder.decode(data, options: .init())
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(image.isVector && image.format == .svg && image.hasAlpha && !image.isThumbnail)
    }

    /// A red square on the left half of a transparent 40×20 canvas, a half-transparent blue one on the right.
    static let halves = svg("width=\"40\" height=\"20\"",
                            "<rect width=\"20\" height=\"20\" fill=\"#ff0000\"/>"
                                + "<rect x=\"20\" width=\"20\" height=\"20\" fill=\"#0000ff\" fill-opacity=\"0.5\"/>")

    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let pixels = image.frames[0].pixels
        let offset = y * pixels.bytesPerRow + x * 4
        return Array(pixels.bytes[offset..<offset + 4])
    }

    @Test func pixelsAreStraightRGBA() throws {
        let image = try Self.coder.decode(Self.halves, options: .init())
        #expect(image.frames[0].pixels.format == .rgba8)
        #expect(Self.pixel(image, 5, 5) == [255, 0, 0, 255])
        // 50 % blue: premultiplied 0x80 over alpha 0x80 un-premultiplies to 255.
        #expect(Self.pixel(image, 30, 5) == [0, 0, 255, 128])
    }

    @Test func transparentBackground() throws {
        let image = try Self.coder.decode(Self.svg("width=\"10\" height=\"10\"", "<circle cx=\"5\" cy=\"5\" r=\"3\"/>"),
                                          options: .init())
        #expect(Self.pixel(image, 0, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(image, 5, 5)[3] == 255)
    }

    @Test func thumbnailFitsKeepingTheRatioUpAndDown() throws {
        let up = try Self.coder.decode(Self.halves, options: .init(thumbnailPixelSize: PixelSize(width: 400, height: 400)))
        #expect(up.pixelSize == PixelSize(width: 400, height: 200) && up.isThumbnail && up.isVector)
        #expect(Self.pixel(up, 100, 100) == [255, 0, 0, 255] && Self.pixel(up, 300, 100) == [0, 0, 255, 128])
        let down = try Self.coder.decode(Self.halves, options: .init(thumbnailPixelSize: PixelSize(width: 10, height: 10)))
        #expect(down.pixelSize == PixelSize(width: 10, height: 5))
    }

    @Test func thumbnailStretchesWithoutTheRatio() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100), preserveAspectRatio: false)
        let image = try Self.coder.decode(Self.halves, options: options)
        #expect(image.pixelSize == PixelSize(width: 100, height: 100))
        #expect(Self.pixel(image, 49, 99) == [255, 0, 0, 255] && Self.pixel(image, 50, 0) == [0, 0, 255, 128])
    }

    @Test func scaleMultipliesTheIntrinsicSize() throws {
        let image = try Self.coder.decode(Self.halves, options: .init(scaleFactor: 3))
        #expect(image.pixelSize == PixelSize(width: 120, height: 60) && image.scale == 3 && !image.isThumbnail)
        let keyed = try Self.coder.decode(Self.halves, options: .init(cacheKey: "icon@2x.svg"))
        #expect(keyed.pixelSize == PixelSize(width: 80, height: 40) && keyed.scale == 2)
    }

    @Test func scaleDownLimitShrinksTheRaster() throws {
        let image = try Self.coder.decode(Self.halves, options: .init(scaleDownLimitBytes: 200 * 4))
        #expect(image.pixelSize.pixelCount <= 200 && image.isThumbnail)
    }

    @Test func pixelLimitIsCheckedBeforeDrawing() throws {
        let options = ImageDecodeOptions(maxPixelCount: 799)
        #expect(badImageDataDescription { _ = try Self.coder.decode(Self.halves, options: options) }
                    == BadImageDataReason.tooManyPixels(width: 40, height: 20, limit: 799).description)
        let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 4000, height: 4000), maxPixelCount: 1_000_000)
        #expect(badImageDataDescription { _ = try Self.coder.decode(Self.halves, options: thumbnail) }
                    == BadImageDataReason.tooManyPixels(width: 4000, height: 2000, limit: 1_000_000).description)
    }

    @Test func cairoSideLimitIsATypedError() {
        let wide = Self.svg("width=\"40000\" height=\"1\"")
        #expect(badImageDataDescription { _ = try Self.coder.decode(wide, options: .init()) }
                    == BadImageDataReason.corrupt("SVG raster 40000x1 is over cairo's 32767 pixels a side").description)
    }

    @Test(arguments: [
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></g></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"10\"></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"-5\" height=\"10\"></svg>",
    ])
    func brokenDocumentsAreBadImageData(text: String) {
        for read in [{ _ = try Self.coder.decode(Data(text.utf8), options: .init()) },
                     { _ = try Self.coder.header(Data(text.utf8)) }] as [() throws -> Void] {
            do {
                try read()
                Issue.record("\(text) was read")
            } catch let error as WebImageError {
                #expect(error.code == 1001)
            } catch {
                Issue.record("untyped \(error)")
            }
        }
    }

    @Test func emptyDataIsEmpty() {
        #expect(badImageDataDescription { _ = try Self.coder.decode(Data(), options: .init()) } == "empty image data")
        #expect(badImageDataDescription { _ = try Self.coder.header(Data()) } == "empty image data")
    }

    @Test func codersManagerReadsSVG() throws {
        let manager = CodersManager.shared
        #expect(try manager.header(for: Self.halves).pixelSize == PixelSize(width: 40, height: 20))
        let image = try manager.decode(Self.halves, options: .init())
        #expect(image.format == .svg && image.isVector)
        #expect(!SVGCoder().canEncode(to: .svg))
    }

    @Test func cancelledBeforeDrawing() {
        let token = WorkCancellation()
        token.cancel()
        do {
            _ = try token.run { try Self.coder.decode(Self.halves, options: .init()) }
            Issue.record("a cancelled decode returned")
        } catch {
            #expect((error as? WebImageError)?.code == 2002)
        }
        #expect(token.checkCount == 1)
    }
}
