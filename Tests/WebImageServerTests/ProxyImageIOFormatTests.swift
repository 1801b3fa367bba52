import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// TIFF, BMP and ICO as sources and as results (imgproxy's `@tiff`, `@bmp`, `@ico`; an icon at most 256 px a side).
@Suite struct ProxyImageIOFormatTests {
    @Test func tiffBMPAndICOResults() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.png", try Fixtures.png(300, 200, alpha: true), contentType: "image/png")
            let cases: [(String, String, String, PixelSize)] = [
                ("w:100", "tiff", "image/tiff", PixelSize(width: 100, height: 67)),
                ("w:100", "bmp", "image/bmp", PixelSize(width: 100, height: 67)),
                ("w:64", "ico", "image/x-icon", PixelSize(width: 64, height: 43)),
                // An icon holds at most 256 px a side: scaled down, as imgproxy's fix_size does.
                ("", "ico", "image/x-icon", PixelSize(width: 256, height: 171)),
            ]
            for (options, ext, type, size) in cases {
                let answer = try await harness.get(harness.signedPath(options, source: "/a.png", ext: ext))
                #expect(answer.status == 200, "\(ext): \(answer.text)")
                #expect(answer.header("Content-Type") == type)
                let image = try answer.image()
                #expect(image.format.rawValue == ImageFormat(sniffing: answer.body).rawValue)
                #expect(image.pixelSize == size, "\(options)@\(ext)")
                #expect(image.hasAlpha, "\(ext) keeps the transparency")
            }
        }
    }

    @Test func tiffAndBMPSources() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.tiff", try Fixtures.still(.tiff, 80, 60), contentType: "image/tiff")
            harness.serve("/a.bmp", try Fixtures.still(.bmp, 80, 60), contentType: "image/bmp")
            harness.serve("/a.ico", try Fixtures.still(.ico, 48, 48), contentType: "image/x-icon")
            for source in ["/a.tiff", "/a.bmp"] {
                let answer = try await harness.get(harness.signedPath("w:40/f:png", source: source))
                #expect(answer.status == 200, "\(source): \(answer.text)")
                #expect(try answer.image().pixelSize == PixelSize(width: 40, height: 30))
            }
            let icon = try await harness.get(harness.signedPath("w:24/f:png", source: "/a.ico"))
            #expect(try icon.image().pixelSize == PixelSize(width: 24, height: 24))
            // No format asked: TIFF is not a preferred format, so the result is the first that holds it.
            let preferred = try await harness.get(harness.signedPath("w:40", source: "/a.tiff"))
            #expect(preferred.header("Content-Type") == "image/jpeg")
        }
    }
}
