import WebImageCore
import Foundation
import Synchronization

/// Loads `file://` URLs from disk in chunks on a background queue, as if they were downloads.
///
/// The head has no status (so status and content-type checks are skipped) and a `Content-Length`; a missing
/// or unreadable file ends with `invalidDownloadResponse`.
public struct FileTransport: ImageTransport {
    /// Bytes read per chunk. Default 64 KiB.
    public var chunkSize: Int

    public init(chunkSize: Int = 64 * 1024) {
        self.chunkSize = max(1, chunkSize)
    }

    public func canLoad(_ url: URL) -> Bool { url.isFileURL }

    public func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        let task = FileTransportTask()
        let chunkSize = chunkSize
        DispatchQueue.global(qos: .userInitiated).async {
            Self.read(request.url, chunkSize: chunkSize, task: task, handler: handler)
        }
        return task
    }

    public func shutdown() async throws {}

    private static func read(_ url: URL, chunkSize: Int, task: FileTransportTask, handler: any TransportResponseHandler) {
        guard let file = FileHandle(forReadingAtPath: url.path) else {
            handler.didComplete(error: .invalidDownloadResponse("cannot open file \(url.path): check it exists and is readable"))
            return
        }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()).map(Int.init) ?? 0
        _ = try? file.seek(toOffset: 0)
        handler.didReceive(TransportResponseHead(status: nil, headers: [("Content-Length", String(size))], url: url))
        while !task.isCancelled {
            let chunk: Data?
            do {
                chunk = try file.read(upToCount: chunkSize)
            } catch {
                handler.didComplete(error: .invalidDownloadResponse("cannot read file \(url.path): \(error)"))
                return
            }
            guard let chunk, !chunk.isEmpty else { break }
            chunk.withUnsafeBytes { handler.didReceive(bytes: $0) }
        }
        handler.didComplete(error: task.isCancelled ? .cancelled : nil)
    }
}

/// Cancellation flag for one file read.
final class FileTransportTask: TransportTask {
    private let cancelled = Atomic<Bool>(false)
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
