import Foundation
import Testing
import TestSupport
import WebImage

/// `info` and the service's `/info` read headers only: a 100 MP PNG, a 12 MP AVIF and a 12 MP JPEG XL are
/// described in about the memory of a 1×1 decode, measured in the child process (a decode would hold 400 MB
/// and 48 MB rasters).
@Suite(.serialized) struct InfoHeaderOnlyTests {
    /// The files, with the size `info` reports.
    static func files(in dir: TemporaryDirectory) throws -> [(path: String, width: Int, height: Int)] {
        let flat = PixelBuffer(width: 4000, height: 3000, bytes: [UInt8](repeating: 128, count: 4000 * 3000 * 4))
        let still = Image(pixels: flat, hasAlpha: false)
        var files: [(String, Int, Int)] = []
        try LargeImages.png(width: 10_000, height: 10_000, alpha: false).write(to: dir.url.appendingPathComponent("big.png"))
        files.append((dir.path("big.png"), 10_000, 10_000))
        for format in [ImageFormat.avif, .jxl] {
            let data = try CodersManager.shared.encode(still, as: format, options: ImageEncodeOptions(quality: 0.5, effort: .fastest))
            try data.write(to: dir.url.appendingPathComponent("big.\(format.rawValue)"))
            files.append((dir.path("big.\(format.rawValue)"), 4000, 3000))
        }
        return files
    }

    /// The bound over the baseline: far below any of the decoded rasters.
    static let allowanceMB = 40.0

    @Test func infoReadsHeadersOnly() async throws {
        let dir = try TemporaryDirectory()
        let baseline = try await MeasuredRun.baselineMB()
        for file in try Self.files(in: dir) {
            let result = try await MeasuredRun.run(["info", file.path, "--json"])
            #expect(result.status == 0, "\(file.path): \(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(json["width"] as? Int == file.width && json["height"] as? Int == file.height, "\(file.path)")
            #expect(result.peakMB < baseline + Self.allowanceMB, "\(file.path): \(result.peakMB) MB, baseline \(baseline) MB")
        }
    }

    @Test func serviceInfoReadsHeadersOnly() async throws {
        let dir = try TemporaryDirectory()
        let origin = try await TestHTTPServer.start()
        let files = try Self.files(in: dir)
        for file in files {
            origin.route("/" + (file.path as NSString).lastPathComponent,
                         TestResponse(body: try Data(contentsOf: URL(fileURLWithPath: file.path))))
        }
        let client = ImageDownloader()
        var idle: MeasuredRun.Result?
        do {
            idle = try await MeasuredRun.serving(["--allow-unsigned", "--allow-private-sources"]) { _ in }
            let run = try await MeasuredRun.serving(["--allow-unsigned", "--allow-private-sources"]) { port in
                for file in files {
                    let source = origin.url("/" + (file.path as NSString).lastPathComponent).absoluteString
                    let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
                    let url = try #require(URL(string: "http://127.0.0.1:\(port)/info/_/plain/\(encoded)"))
                    let body = try await client.data(for: ImageDownloadRequest(url: url)).data
                    let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                    #expect(json["width"] as? Int == file.width && json["height"] as? Int == file.height, "\(file.path)")
                }
            }
            let idlePeak = try #require(idle).peakMB
            #expect(run.peakMB < idlePeak + Self.allowanceMB, "served: \(run.peakMB) MB, idle server: \(idlePeak) MB")
        } catch {
            try await client.shutdown()
            try await origin.shutdown()
            throw error
        }
        try await client.shutdown()
        try await origin.shutdown()
    }
}
