import Foundation
import Hummingbird

/// The framework's own ceiling for serve_bench's W3 row: a Hummingbird application (the one `webimage serve` runs
/// on, with its defaults: one event loop a core, HTTP/1.1) answering every GET with one file's bytes held in
/// memory, as a result-cache hit answers. `GET /health` answers `ok`.
///
/// `webimage-benchmarks --bare-server PORT FILE` serves on 127.0.0.1:PORT until killed.
enum BareServer {
    static func run(port: Int, file: String) async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let body = ByteBuffer(bytes: bytes)
        let type = file.hasSuffix(".webp") ? "image/webp" : file.hasSuffix(".png") ? "image/png" : "image/jpeg"
        let router = Router()
        router.get("/health") { _, _ in "ok" }
        router.get("**") { _, _ in
            Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: body))
        }
        var application = Application(router: router,
                                      configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)))
        application.logger.logLevel = .warning
        try await application.runService()
    }
}
