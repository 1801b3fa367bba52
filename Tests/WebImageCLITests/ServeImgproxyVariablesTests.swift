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
        let variables = ["IMGPROXY_JPEG_PROGRESSIVE", "IMGPROXY_PNG_INTERLACED", "IMGPROXY_PNG_QUANTIZE",
                         "IMGPROXY_PNG_QUANTIZATION_COLORS", "IMGPROXY_WEBP_EFFORT", "IMGPROXY_WEBP_PRESET",
                         "IMGPROXY_AVIF_SPEED", "IMGPROXY_JXL_EFFORT"]
        let source = origin.url("/a.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var frames: [Bool: UInt8] = [:], interlace: [Bool: UInt8] = [:], colorType: [Bool: UInt8] = [:]
        var depth: [Bool: UInt8] = [:]
        for on in [false, true] {
            let serve = try await ServeProcess.start([], environment: Dictionary(uniqueKeysWithValues: zip(variables, [
                on ? "true" : "false", on ? "true" : "false", on ? "true" : "false", "16", "6", "photo", "9", "3"])))
            for format in ["jpg", "png"] {
                let (body, response) = try await URLSession.shared.data(from: try #require(URL(string:
                    "http://127.0.0.1:\(serve.port)/_/w:32/plain/\(source)@\(format)")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                if format == "jpg" {
                    frames[on] = JPEGFrames.startOfFrame(in: [UInt8](body))
                } else {
                    (interlace[on], colorType[on], depth[on]) = (body[28], body[25], body[24])
                }
            }
            #expect(serve.stop() == 0)
            for variable in variables {
                #expect(!serve.stderr.contains("variable=\(variable)"), "read, not reported as ignored: \(serve.stderr)")
            }
        }
        #expect(frames == [false: 0xC0, true: 0xC2])
        #expect(interlace == [false: 0, true: 1])
        #expect(colorType == [false: 6, true: 3], "truecolour with alpha (the source has it), then a palette")
        #expect(depth == [false: 8, true: 4], "16 colours: 4-bit indices")
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
