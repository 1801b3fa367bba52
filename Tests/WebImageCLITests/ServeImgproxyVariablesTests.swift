import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage
import WebImageServer

/// A real `webimage serve` configured the way an imgproxy deployment is: by `IMGPROXY_*` variables alone.
@Suite struct ServeImgproxyVariablesTests {
    /// The key and salt of imgproxy's signing example, two pairs as imgproxy takes them (comma-separated).
    static let keys = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881,736563726574"
    static let salts = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5,68656c6c6f"

    @Test func keysPresetsAndQualityFromImgproxysVariables() async throws {
        let origin = try await TestHTTPServer.start()
        let pixels = PixelBuffer(width: 64, height: 48) { out in for i in out.indices { out[i] = UInt8(i % 251) } }
        let jpeg = try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let serve = try await ServeProcess.start([], environment: [
            "IMGPROXY_KEY": Self.keys, "IMGPROXY_SALT": Self.salts, "IMGPROXY_PRESETS": "thumb=rs:fit:16:16",
            "IMGPROXY_USE_ETAG": "true",
        ], unsigned: false)
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let path = "/pr:thumb/plain/\(source)@png"
        for pair in try Self.pairs() {
            let signed = "/" + URLSigner(keyPairs: [pair]).signature(of: path, with: pair) + path
            let (body, response) = try await URLSession.shared.data(from: try #require(URL(string:
                "http://127.0.0.1:\(serve.port)\(signed)")))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let header = try CodersManager.shared.header(for: body)
            #expect(header.format == .png && header.pixelSize == PixelSize(width: 16, height: 12))
        }
        let unsigned = try RawSocket(port: serve.port).request("/_" + path)
        #expect(unsigned.hasPrefix("HTTP/1.1 403"), "an unsigned URL is refused: \(unsigned.prefix(40))")
        #expect(serve.stop() == 0)
        #expect(serve.stderr.contains("variable=IMGPROXY_USE_ETAG"), "\(serve.stderr)")
        try await origin.shutdown()
    }

    /// imgproxy's source-address switches, read each for its own class: an env file allowing loopback sources
    /// serves a loopback origin, and one that does not (imgproxy's default too) refuses it as imgproxy does (404).
    /// imgproxy's encoder settings: `IMGPROXY_JPEG_PROGRESSIVE` writes progressive JPEGs (a SOF2 frame),
    /// `IMGPROXY_PNG_INTERLACED` Adam7 PNGs (IHDR's interlace byte), `IMGPROXY_PNG_QUANTIZE` palette ones (its
    /// colour type 3), and the others are read, not reported as ignored.
    @Test func encoderSettingsFromImgproxysVariables() async throws {
        let origin = try await TestHTTPServer.start()
        let pixels = PixelBuffer(width: 64, height: 48) { out in for i in out.indices { out[i] = UInt8(i % 251) } }
        let png = try CodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
        origin.route("/a.png", TestResponse(headers: [("Content-Type", "image/png")], body: png))
        let settings: [(variable: String, on: String, off: String)] = [
            ("IMGPROXY_JPEG_PROGRESSIVE", "true", "false"), ("IMGPROXY_JPEG_NO_SUBSAMPLE", "true", "false"),
            ("IMGPROXY_PNG_INTERLACED", "true", "false"), ("IMGPROXY_PNG_QUANTIZE", "true", "false"),
            ("IMGPROXY_PNG_QUANTIZATION_COLORS", "16", "16"), ("IMGPROXY_WEBP_EFFORT", "6", "6"),
            ("IMGPROXY_WEBP_PRESET", "photo", "photo"), ("IMGPROXY_WEBP_COMPRESSION", "lossless", "lossy"),
            ("IMGPROXY_WEBP_SMART_SUBSAMPLE", "true", "false"), ("IMGPROXY_AVIF_SPEED", "9", "9"),
            ("IMGPROXY_AVIF_SUBSAMPLE", "off", "auto"), ("IMGPROXY_JXL_EFFORT", "3", "3"),
        ]
        let source = origin.url("/a.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var frames: [Bool: UInt8] = [:], sampling: [Bool: UInt8] = [:], interlace: [Bool: UInt8] = [:]
        var colorType: [Bool: UInt8] = [:], depth: [Bool: UInt8] = [:], webpChunk: [Bool: String] = [:]
        var avifSubsampled: [Bool: Bool] = [:]
        for on in [false, true] {
            let serve = try await ServeProcess.start([], environment: Dictionary(uniqueKeysWithValues: settings.map {
                ($0.variable, on ? $0.on : $0.off)
            }))
            for format in ["jpg", "png", "webp", "avif"] {
                let (data, response) = try await URLSession.shared.data(from: try #require(URL(string:
                    "http://127.0.0.1:\(serve.port)/_/w:32/plain/\(source)@\(format)")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let body = [UInt8](data)
                switch format {
                case "jpg": (frames[on], sampling[on]) = (JPEGFrames.startOfFrame(in: body), JPEGFrames.lumaSampling(in: body))
                case "png": (interlace[on], colorType[on], depth[on]) = (body[28], body[25], body[24])
                // With alpha, lossy WebP is VP8X with ALPH and VP8 chunks; lossless is one VP8L chunk.
                case "webp": webpChunk[on] = String(decoding: body[12..<16], as: UTF8.self)
                default: avifSubsampled[on] = AV1Config.chromaSubsampled(in: body)
                }
            }
            #expect(serve.stop() == 0)
            for setting in settings {
                #expect(!serve.stderr.contains("variable=\(setting.variable)"), "read, not reported as ignored: \(serve.stderr)")
            }
        }
        #expect(frames == [false: 0xC0, true: 0xC2])
        #expect(sampling == [false: 0x22, true: 0x11])
        #expect(interlace == [false: 0, true: 1])
        #expect(colorType == [false: 6, true: 3], "truecolour with alpha (the source has it), then a palette")
        #expect(depth == [false: 8, true: 4], "16 colours: 4-bit indices")
        #expect(webpChunk == [false: "VP8X", true: "VP8L"])
        #expect(avifSubsampled == [false: true, true: false])
        try await origin.shutdown()
    }

    @Test(arguments: [("IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", 200), ("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES", 404),
                      ("IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", 404)])
    func sourceAddressSwitchesFromImgproxysVariables(variable: String, status: Int) async throws {
        let origin = try await TestHTTPServer.start()
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 8, height: 8)), as: .jpeg,
                                                   options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let serve = try await ServeProcess.start([], environment: [variable: "true"], privateSources: false)
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let answer = try RawSocket(port: serve.port).request("/_/w:4/plain/\(source)@png")
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(variable): \(answer.prefix(200))")
        if status == 404 { #expect(answer.contains("--allow-loopback-sources"), "\(answer)") }
        #expect(origin.requestCount(for: "/a.jpg") == (status == 200 ? 1 : 0))
        #expect(serve.stop() == 0)
        #expect(!serve.stderr.contains("variable=\(variable)"), "read, not reported as ignored: \(serve.stderr)")
        try await origin.shutdown()
    }

    /// `IMGPROXY_SECRET`: image and info requests without `Authorization: Bearer SECRET` answer 403 (imgproxy's
    /// invalid secret error), health checks do not need it, and the secret is written nowhere.
    @Test func imgproxysSecretGuardsImageAndInfoRequests() async throws {
        let origin = try await TestHTTPServer.start()
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 8, height: 8)), as: .jpeg,
                                                   options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        let secret = "Zq8-secret-token-41"
        let serve = try await ServeProcess.start(["--log-level", "debug"], environment: ["IMGPROXY_SECRET": secret])
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        func status(_ path: String, authorization: String?) throws -> String {
            let socket = try RawSocket(port: serve.port)
            try socket.send("GET \(path) HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n"
                            + (authorization.map { "Authorization: \($0)\r\n" } ?? "") + "\r\n")
            return String(socket.readToEnd().prefix(12))
        }
        let image = "/_/w:4/plain/\(source)@png", info = "/info/_/plain/\(source)"
        for path in [image, info] {
            #expect(try status(path, authorization: nil) == "HTTP/1.1 403", "\(path)")
            #expect(try status(path, authorization: "Bearer wrong") == "HTTP/1.1 403", "\(path)")
            #expect(try status(path, authorization: secret) == "HTTP/1.1 403", "\(path): the scheme is part of it")
            #expect(try status(path, authorization: "Bearer \(secret)") == "HTTP/1.1 200", "\(path)")
        }
        #expect(try status("/health", authorization: nil) == "HTTP/1.1 200")
        #expect(serve.stop() == 0)
        #expect(!serve.stderr.contains(secret) && !serve.stderr.contains("IMGPROXY_SECRET"), "\(serve.stderr)")
        try await origin.shutdown()
    }

    static func pairs() throws -> [URLSigner.KeyPair] {
        try zip(keys.split(separator: ","), salts.split(separator: ",")).map {
            try #require(URLSigner.KeyPair(keyHex: String($0), saltHex: String($1)))
        }
    }
}
