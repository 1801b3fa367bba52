import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage
@testable import webimage

/// imgproxy's `IMGPROXY_WATERMARK_URL` and `IMGPROXY_FALLBACK_IMAGE_URL`: `webimage serve` downloads them once
/// at start-up, and a URL that does not give an image stops the start-up naming the variable.
@Suite struct ServeOperatorImageURLTests {
    static func png(_ width: Int, _ height: Int, _ rgba: [UInt8]) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height, bytes: [UInt8]((0..<width * height).flatMap { _ in rgba }))
        return try CodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
    }

    @Test func imagesGivenByURLAreDownloadedAtStartUp() async throws {
        let dir = try TemporaryDirectory()
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        origin.route("/mark.png", TestResponse(headers: [("Content-Type", "image/png")], body: try Self.png(4, 4, [255, 0, 0, 255])))
        origin.route("/fallback.png", TestResponse(headers: [("Content-Type", "image/png")], body: try Self.png(8, 6, [0, 0, 255, 255])))
        origin.route("/white.png", TestResponse(headers: [("Content-Type", "image/png")], body: try Self.png(40, 30, [255, 255, 255, 255])))
        let environment = ProcessInfo.processInfo.environment.merging([
            "IMGPROXY_WATERMARK_URL": origin.url("/mark.png").absoluteString,
            "IMGPROXY_FALLBACK_IMAGE_URL": origin.url("/fallback.png").absoluteString,
        ]) { $1 }
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0", "--allow-unsigned", "--allow-private-sources",
                                          "--cache-dir", dir.path("cache"), "--no-access-log"],
                                         environment: environment, stdout: .pipe)
        defer { process.terminate() }
        let port = try await ServeAnnouncement.read(try #require(process.standardOutput)).port
        func get(_ options: String, _ path: String) async throws -> (Int, Data) {
            let source = origin.url(path).absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/_/\(options)/plain/\(source)@png"))
            let (body, response) = try await URLSession.shared.data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
        }
        let (status, body) = try await get("wm:1:ce", "/white.png")
        #expect(status == 200)
        let marked = try CodersManager.shared.decode(body, options: ImageDecodeOptions()).pixels.converted(to: .rgba8)
        marked.withUnsafeBytes { bytes in
            let centre = (15 * 40 + 20) * 4, corner = 0
            #expect(Array(bytes[centre..<centre + 4]) == [255, 0, 0, 255])
            #expect(Array(bytes[corner..<corner + 4]) == [255, 255, 255, 255])
        }
        let (fallbackStatus, fallbackBody) = try await get("w:0", "/missing.png")
        #expect(fallbackStatus == 200)
        let fallback = try CodersManager.shared.decode(fallbackBody, options: ImageDecodeOptions())
        #expect(fallback.pixelSize == PixelSize(width: 8, height: 6))
        process.terminate()
        await process.exited()
        #expect(process.termination == .exited(0))
    }

    @Test func aURLThatGivesNoImageStopsTheStartUp() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        origin.route("/page", TestResponse(headers: [("Content-Type", "text/html")], body: Data("<html></html>".utf8)))
        let missing = origin.url("/missing.png").absoluteString, page = origin.url("/page").absoluteString
        let cases: [([String: String], String)] = [
            (["IMGPROXY_WATERMARK_URL": missing], "webimage: IMGPROXY_WATERMARK_URL: cannot download '\(missing)': "),
            (["IMGPROXY_FALLBACK_IMAGE_URL": page], "webimage: IMGPROXY_FALLBACK_IMAGE_URL: not a usable image"),
            (["IMGPROXY_WATERMARK_URL": "file:///etc/passwd"],
             "webimage: IMGPROXY_WATERMARK_URL: bad value 'file:///etc/passwd': give an http or https URL"),
        ]
        for (environment, prefix) in cases {
            let result = try await CLIRunner.run(["serve", "--allow-unsigned", "--bind", "127.0.0.1:0"],
                                                 environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                                 timeout: 60)
            #expect(result.status == 1, "\(environment)")
            #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix(prefix) == true,
                    "\(result.stderrLines)")
        }
    }
}
