import Foundation
import LoopbackServer
import WebImage
import WebImageCLISupport

/// The demo's in-process image server on 127.0.0.1: every format the library decodes, plus the bad cases.
///
/// Serves the files the round trips wrote (baseline JPEG, PNG with alpha, APNG, GIF, lossy, lossless and
/// animated WebP) and generated ones: a large progressive JPEG, a slow dripping progressive JPEG, a burst
/// target, a revalidation target with an ETag, a corrupt file; every other path answers 404.
struct DemoServer {
    /// A served image the cold, warm and disk passes load.
    struct Entry {
        var path: String
        var label: String
    }

    let server: TestHTTPServer
    /// The images every cache pass loads, in table order.
    let entries: [Entry]

    static let burstPath = "/burst.jpg"
    static let slowPath = "/slow-progressive.jpg"
    static let largePath = "/large-progressive.jpg"
    static let etagPath = "/revalidated.jpg"
    static let missingPath = "/missing.jpg"
    static let corruptPath = "/corrupt.png"

    /// Starts the server over the round-trip files in `directory` (a missing file is simply not served).
    static func start(directory: String) async throws -> DemoServer {
        let server = try await TestHTTPServer.start()
        var entries: [Entry] = []
        let files = [("photo-q90.jpg", "jpeg baseline"), ("photo-alpha.png", "png alpha"),
                     ("animation.png", "apng"), ("animation.gif", "gif animated"),
                     ("photo-lossy.webp", "webp lossy"), ("photo-lossless.webp", "webp lossless"),
                     ("animation.webp", "webp animated")]
        for (file, label) in files {
            guard let data = try? FileIO.read(directory + "/" + file, limit: FileIO.defaultInputLimit) else { continue }
            server.route("/" + file, TestResponse(headers: [("Content-Type", mimeType(data))], body: data))
            entries.append(Entry(path: "/" + file, label: label))
        }
        let large = try ProgressiveJPEG.encode(DemoScene.photo(width: 1600, height: 1200).pixels, quality: 85)
        server.route(largePath, TestResponse(headers: [("Content-Type", "image/jpeg")], body: large))
        entries.insert(Entry(path: largePath, label: "jpeg progressive"), at: 1)

        let photo = DemoScene.photo(width: 480, height: 360).pixels
        let slow = try ProgressiveJPEG.encode(photo, quality: 80)
        server.route(slowPath, TestResponse(headers: [("Content-Type", "image/jpeg")], body: slow,
                                            behavior: .drip(chunkSize: max(1, slow.count / 24),
                                                            interval: .milliseconds(40))))
        let burst = try CodersManager.shared.encode(Image(pixels: photo, hasAlpha: false), as: .jpeg,
                                                    options: ImageEncodeOptions(quality: 0.8))
        // A short delay keeps the download in flight while the whole burst asks for it.
        server.route(burstPath, TestResponse(headers: [("Content-Type", "image/jpeg")], body: burst,
                                             delay: .milliseconds(150)))
        server.route(etagPath, TestResponse(headers: [("Content-Type", "image/jpeg")], body: burst,
                                            etag: "\"demo-v1\""))
        // A PNG signature over garbage: the header chunk's CRC cannot match.
        var corrupt = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        corrupt.append(Data(repeating: 0x5A, count: 2000))
        server.route(corruptPath, TestResponse(headers: [("Content-Type", "image/png")], body: corrupt))
        return DemoServer(server: server, entries: entries)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL { server.url(path) }

    private static func mimeType(_ data: Data) -> String {
        ImageFormat(sniffing: data).mimeType ?? "application/octet-stream"
    }
}
