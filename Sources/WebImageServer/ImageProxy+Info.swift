import Foundation
import WebImage

/// What `/info` tells about a source.
struct SourceInfo: Codable, Sendable {
    var format: String
    /// As the decoder delivers it, before any orientation it reports (``ImageHeader/pixelSize``).
    var width: Int
    var height: Int
    var frames: Int
}

extension ImageProxy {
    /// The answer to `/info/<signature>/<options>/<source>`: the source's format, size and frame count as JSON,
    /// from its header alone (no pixel is decoded; the source limits are checked as for an image).
    /// Signed like an image URL (the signature covers the path after it); the options are checked, not applied.
    public func info(_ request: ProxyRequest) async -> ProxyResponse {
        do throws(ProxyError) {
            guard request.path.hasPrefix("/info/") else { throw .badRequest("not an info path") }
            let job = try job(for: request.path.dropFirst("/info".count), accept: nil)
            guard !isStoppingNow else { throw .unavailable("the service is shutting down") }
            let processor = self.processor
            let deadline = WorkDeadline(self.deadline(from: request.arrival))
            let info = try await withSource(job.source, until: deadline) { source throws(ProxyError) in
                let header = try processor.header(of: source)
                return SourceInfo(format: header.format.rawValue, width: header.pixelSize.width,
                                  height: header.pixelSize.height, frames: header.frameCount)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = String(decoding: (try? encoder.encode(info)) ?? Data("{}".utf8), as: UTF8.self)
            return .plain(200, json, contentType: "application/json")
        } catch {
            return errorResponse(error)
        }
    }
}
