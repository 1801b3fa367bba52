import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// Every URL option over real HTTP, with the exact result sizes imgproxy's geometry gives.
@Suite struct ProxyOptionTests {
    /// A 400×300 JPEG at /photo.jpg.
    static func withPhoto(_ configuration: ImageProxyConfiguration = ProxyHarness.configuration(),
                          _ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/photo.jpg", try Fixtures.jpeg(400, 300))
            try await body(harness)
        }
    }

    @Test(arguments: [
        ("rs:fit:200:200", 200, 150), ("resize:fill:200:200", 200, 200), ("rs:fill-down:1000:500", 400, 200),
        ("rs:force:100:100", 100, 100), ("rs:auto:200:100", 200, 100), ("rs:auto:100:200", 100, 75),
        ("s:100:50", 67, 50), ("size:100:100:1", 100, 75), ("w:100", 100, 75), ("width:100", 100, 75),
        ("h:60", 80, 60), ("height:60", 80, 60), ("rs:fit:800:800", 400, 300), ("rs:fit:800:800:1", 800, 600),
        ("w:800/el:1", 800, 600), ("w:800/enlarge:1", 800, 600), ("w:100/dpr:2", 200, 150),
        ("rt:fill/w:100/h:100", 100, 100), ("resizing_type:force/w:50/h:20", 50, 20),
        ("c:200:100", 200, 100), ("crop:0.5:0.5", 200, 150), ("c:200:100/w:100", 100, 50),
        ("rot:90", 300, 400), ("rotate:270/w:150", 150, 200), ("rs:fill:100:100/g:no", 100, 100),
        ("rs:fill:100:100/gravity:fp:0.2:0.8", 100, 100), ("rs:fill:100:100/g:nowe:10:10", 100, 100),
        ("rs:fill:50:100/g:soea:5:5", 50, 100), ("", 400, 300),
    ])
    func sizes(options: String, width: Int, height: Int) async throws {
        try await Self.withPhoto { harness in
            let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg"))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            let image = try answer.image()
            #expect(image.pixelSize == PixelSize(width: width, height: height), "\(options)")
        }
    }

    /// The red channel grows from left to right in the fixture, so west and east crops differ by gravity.
    @Test func gravityPicksThePartKept() async throws {
        try await Self.withPhoto { harness in
            func red(_ options: String) async throws -> Int {
                let image = try await harness.get(harness.signedPath(options, source: "/photo.jpg")).image()
                return Int(image.pixels.rgba8(x: 50, y: 50)[0])
            }
            let west = try await red("rs:fill:100:100/g:we"), east = try await red("rs:fill:100:100/g:ea")
            let center = try await red("rs:fill:100:100/g:ce"), left = try await red("rs:fill:100:100/g:fp:0:0.5")
            #expect(west < center && center < east)
            #expect(abs(left - west) <= 3)
            let cropWest = try await red("c:100:100:we"), cropEast = try await red("c:100:100:ea")
            #expect(cropWest < cropEast)
        }
    }

    @Test func formatsFromOptionOrExtension() async throws {
        try await Self.withPhoto { harness in
            for (options, ext, type) in [("f:png", nil, "image/png"), ("format:webp", nil, "image/webp"),
                                         ("ext:gif", nil, "image/gif"), ("w:10", "png", "image/png"),
                                         ("w:10", "webp", "image/webp"), ("f:jpg", nil, "image/jpeg")] {
                let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: ext))
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type") == type, "\(options) \(ext ?? "")")
                #expect(ImageFormat(sniffing: answer.body).mimeType == type)
            }
        }
    }

    @Test func base64SourceSplitAnywhere() async throws {
        try await Self.withPhoto { harness in
            let encoded = Base64URL.encode(Array(harness.origin.url("/photo.jpg").absoluteString.utf8))
            let middle = encoded.index(encoded.startIndex, offsetBy: 10)
            let path = "/rs:fit:100:100/" + encoded[..<middle] + "/" + encoded[middle...] + ".png"
            let answer = try await harness.get(URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(path))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
            #expect(try answer.image().pixelSize == PixelSize(width: 100, height: 75))
        }
    }

    @Test func qualityAndMaxBytesChangeTheBytes() async throws {
        try await Self.withPhoto { harness in
            let low = try await harness.get(harness.signedPath("q:10", source: "/photo.jpg"))
            let high = try await harness.get(harness.signedPath("quality:95", source: "/photo.jpg"))
            #expect(low.body.count < high.body.count)
            let capped = try await harness.get(harness.signedPath("w:100/q:100/mb:2500", source: "/photo.jpg"))
            let uncapped = try await harness.get(harness.signedPath("w:100/q:100", source: "/photo.jpg"))
            #expect(capped.body.count <= 2500 && uncapped.body.count > 2500)
            let named = try await harness.get(harness.signedPath("w:100/q:100/max_bytes:2500", source: "/photo.jpg"))
            #expect(named.body == capped.body)
        }
    }

    @Test func blurAndSharpenKeepTheSizeAndChangeThePixels() async throws {
        try await Self.withPhoto { harness in
            let plain = try await harness.get(harness.signedPath("w:200/f:png", source: "/photo.jpg"))
            for options in ["w:200/f:png/bl:3", "w:200/f:png/blur:3", "w:200/f:png/sh:1", "w:200/f:png/sharpen:1"] {
                let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg"))
                #expect(try answer.image().pixelSize == PixelSize(width: 200, height: 150), "\(options)")
                #expect(answer.body != plain.body, "\(options)")
            }
        }
    }

    @Test func backgroundFlattensTransparency() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/alpha.png", try Fixtures.png(40, 20, alpha: true), contentType: "image/png")
            let kept = try await harness.get(harness.signedPath("f:png", source: "/alpha.png")).image()
            #expect(kept.pixels.rgba8(x: 5, y: 10)[3] == 0)
            for options in ["f:png/bg:ff0000", "f:png/background:255:0:0"] {
                let flat = try await harness.get(harness.signedPath(options, source: "/alpha.png")).image()
                #expect(flat.pixels.rgba8(x: 5, y: 10) == [255, 0, 0, 255], "\(options)")
            }
        }
    }

    @Test func metadataCachebusterAndPresets() async throws {
        let configuration = ProxyHarness.configuration { $0.processing.presets = ["thumb": "rs:fill:50:50/q:70"] }
        try await Self.withPhoto(configuration) { harness in
            for options in ["sm:1", "strip_metadata:1", "pr:thumb", "preset:thumb", "cb:1", "cachebuster:2"] {
                let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg"))
                #expect(answer.status == 200, "\(options)")
            }
            let thumb = try await harness.get(harness.signedPath("pr:thumb", source: "/photo.jpg"))
            #expect(try thumb.image().pixelSize == PixelSize(width: 50, height: 50))
            // Each cache buster is its own result; a repeated one is a cache hit.
            let encodes = harness.proxy.statistics.snapshot.encodes
            _ = try await harness.get(harness.signedPath("cb:3", source: "/photo.jpg"))
            _ = try await harness.get(harness.signedPath("cb:3", source: "/photo.jpg"))
            #expect(harness.proxy.statistics.snapshot.encodes == encodes + 1)
        }
    }

    @Test func expiresInTheFutureServesAndShortensTheTTL() async throws {
        try await Self.withPhoto { harness in
            let future = Int(Date().timeIntervalSince1970) + 600
            let answer = try await harness.get(harness.signedPath("exp:\(future)/w:10", source: "/photo.jpg"))
            #expect(answer.status == 200)
            let maxAge = answer.header("Cache-Control").flatMap { $0.split(separator: "=").dropFirst().first }
                .flatMap { Int($0.prefix { $0.isNumber }) }
            #expect(maxAge.map { $0 <= 600 && $0 > 500 } == true)
            let past = try await harness.get(harness.signedPath("expires:1000/w:10", source: "/photo.jpg"))
            #expect(past.status == 404)
        }
    }

    /// A URL answered once is remembered checked (``CheckedJobs``); its expiry is still tested on every request
    /// (here a remembered job whose expiry has passed: no waiting for the clock).
    @Test func aRememberedURLStillExpires() async throws {
        try await Self.withPhoto { harness in
            let future = Int(Date().timeIntervalSince1970) + 600
            let path = harness.signedPath("exp:\(future)/w:10", source: "/photo.jpg")
            #expect(try await harness.get(path).status == 200)
            #expect(harness.proxy.checkedJobs.count == 1)
            let key = CheckedJobs.Key(path: path, accept: nil)
            var job = try #require(harness.proxy.checkedJobs.job(for: key))
            job.options.expires = Int(Date().timeIntervalSince1970) - 1
            harness.proxy.checkedJobs.remember(job, for: key)
            let late = try await harness.get(path)
            #expect(late.status == 404 && late.text.contains("expired"), "\(late.status) \(late.text)")
        }
    }

    @Test func largeResultsAreScaledDownToTheOutputLimit() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxOutputSide = 256 }
        try await Self.withPhoto(configuration) { harness in
            let answer = try await harness.get(harness.signedPath("w:1000/el:1", source: "/photo.jpg"))
            #expect(try answer.image().pixelSize == PixelSize(width: 256, height: 192))
        }
    }
}
