import Foundation
import WebImage

/// Decodes, thumbnails and loads an image through `ImageManager` from a loopback server, with nothing but
/// the library's public API; exits 1 on any mismatch.
func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok: \(what)" : "FAILED: \(what)")
    if !condition { exit(1) }
}

let pixels = PixelBuffer(width: 64, height: 32, format: .rgba8,
                         bytes: (0..<(64 * 32)).flatMap { i in [UInt8(i % 64 * 4), 90, 200, 255] })
let png = try CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: .png,
                                          options: ImageEncodeOptions())

let decoded = try CodersManager.shared.decode(png, options: ImageDecodeOptions())
check(decoded.pixelSize == PixelSize(width: 64, height: 32) && decoded.format == .png, "decode 64x32 PNG")

let thumbnail = try CodersManager.shared.decode(png, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
check(thumbnail.pixelSize == PixelSize(width: 16, height: 8) && thumbnail.isThumbnail, "thumbnail 16x8")

let server = try await ImageServer.start(serving: png)
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
let downloader = ImageDownloader()
let manager = ImageManager(cache: ImageCache(namespace: "consumer", directory: directory), loader: downloader)
guard let url = URL(string: "http://127.0.0.1:\(server.port)/photo.png") else { fatalError("bad URL") }
let loaded = try await manager.image(for: url)
check(loaded.image.pixelSize == PixelSize(width: 64, height: 32) && loaded.cacheType == .none && loaded.data == png,
      "load over HTTP through ImageManager")
check(try await manager.image(for: url).cacheType == .memory, "second load from the memory cache")

try await downloader.shutdown()
try await server.channel.close().get()
try? FileManager.default.removeItem(at: directory)
print("consumer: all checks passed")
