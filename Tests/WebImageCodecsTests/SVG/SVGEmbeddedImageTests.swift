import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImageCore

/// Images an SVG embeds as `data:` URLs are sized before librsvg hands them to gdk-pixbuf, which would decode
/// them whole with no limit and no deadline.
@Suite struct SVGEmbeddedImageTests {
    static func svg(embedding image: Data, mime: String = "image/png", copies: Int = 1) -> Data {
        let uri = "data:\(mime);base64,\(image.base64EncodedString(options: .lineLength76Characters))"
        let images = String(repeating: "<image width=\"10\" height=\"10\" href=\"\(uri)\"/>", count: copies)
        return Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\(images)</svg>".utf8)
    }

    @Test func aSmallEmbeddedImageIsDrawn() throws {
        let red = try PNGCoder().encode(Image(pixels: PixelBuffer(width: 4, height: 4, format: .rgba8,
                                                                      bytes: [UInt8](repeating: 0, count: 64).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 })),
                                        as: .png, options: ImageEncodeOptions())
        let image = try SVGCoder().decode(Self.svg(embedding: red), options: ImageDecodeOptions())
        #expect(image.pixels.converted(to: .rgba8).rgba8(x: 5, y: 5) == [255, 0, 0, 255])
        #expect(SVGEmbeddedImages.payloads(in: Self.svg(embedding: red)) == [red])
    }

    @Test func aPixelBombIsRefusedBeforeDrawing() throws {
        // 25 MP of zero pixels: a small PNG, 100 MB once decoded; refused against a 1 MP limit.
        let bomb = LargeImages.png(width: 5000, height: 5000, alpha: false)
        let started = ContinuousClock.now
        let error = #expect(throws: WebImageError.self) {
            try SVGCoder().decode(Self.svg(embedding: bomb), options: ImageDecodeOptions(maxPixelCount: 1_000_000))
        }
        #expect(error?.description == WebImageError.badImageData(
            .tooManyPixels(width: 5000, height: 5000, limit: 1_000_000)).description)
        #expect(ContinuousClock.now - started < .seconds(20))
        // Several images within the limit each, over it together.
        let tile = LargeImages.png(width: 800, height: 800, alpha: false)
        _ = try SVGCoder().decode(Self.svg(embedding: tile), options: ImageDecodeOptions(maxPixelCount: 1_000_000))
        #expect(throws: WebImageError.self) {
            try SVGCoder().decode(Self.svg(embedding: tile, copies: 2), options: ImageDecodeOptions(maxPixelCount: 1_000_000))
        }
    }

    @Test func unreadableAndNestedEmbeddingsAreRefused() throws {
        #expect(throws: WebImageError.self) {
            try SVGCoder().decode(Self.svg(embedding: Data("not an image at all".utf8)), options: ImageDecodeOptions())
        }
        let inner = Self.svg(embedding: Self.svg(embedding: Data("x".utf8)), mime: "image/svg+xml")
        #expect(throws: WebImageError.self) {
            try SVGCoder().decode(Self.svg(embedding: inner, mime: "image/svg+xml"), options: ImageDecodeOptions())
        }
    }
}
