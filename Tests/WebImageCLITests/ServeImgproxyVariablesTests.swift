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

    static func pairs() throws -> [URLSigner.KeyPair] {
        try zip(keys.split(separator: ","), salts.split(separator: ",")).map {
            try #require(URLSigner.KeyPair(keyHex: String($0), saltHex: String($1)))
        }
    }
}
