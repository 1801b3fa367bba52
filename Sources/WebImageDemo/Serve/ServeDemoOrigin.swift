import Foundation
import LoopbackServer
import WebImage

/// The service demo's image origin on 127.0.0.1: the library demo's generated pictures (``DemoScene``), encoded
/// in memory, so `webimage-demo serve` needs no files and no network.
enum ServeDemoOrigin {
    static let photoPath = "/photo.jpg"
    static let alphaPath = "/photo-alpha.png"
    static let animationPath = "/animation.gif"
    static let missingPath = "/missing.jpg"

    /// Starts the origin with the photo (JPEG), the photo with alpha (PNG) and the animation (GIF).
    static func start() async throws -> TestHTTPServer {
        let samples: [(String, Image, ImageFormat)] = [
            (photoPath, DemoScene.photo(), .jpeg),
            (alphaPath, DemoScene.photoWithAlpha(), .png),
            (animationPath, DemoScene.animation(), .gif),
        ]
        var encoded: [(String, Data, String)] = []
        for (path, image, format) in samples {
            let data = try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(quality: 0.85))
            encoded.append((path, data, format.mimeType ?? "application/octet-stream"))
        }
        let server = try await TestHTTPServer.start()
        for (path, data, type) in encoded {
            server.route(path, TestResponse(headers: [("Content-Type", type)], body: data))
        }
        return server
    }
}
