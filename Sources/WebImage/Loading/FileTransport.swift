import WebImageCore
import Foundation
import Synchronization

/// Loads `file://` URLs from disk in chunks on a background queue, as if they were downloads.
///
/// The head has no status (so status and content-type checks are skipped) and, for a regular file, a
/// `Content-Length`; devices and pipes have none and are read until they end or pass ``maxBytes``. A missing
/// or unreadable file ends with `invalidDownloadResponse` (2003), one over ``maxBytes`` with
/// `responseTooLarge` (2101).
public struct FileTransport: ImageTransport {
    /// 100 MB: the downloader's default `maxResponseBytes`, so a file is accepted exactly when the same bytes
    /// would be over HTTP.
    public static let defaultMaxBytes = 100_000_000

    /// Bytes read per chunk. Default 64 KiB.
    public var chunkSize: Int
    /// Stop reading and fail once a file has given more than this many bytes. Default ``defaultMaxBytes``;
    /// the downloader passes its `maxResponseBytes`.
    public var maxBytes: Int

    /// A file transport reading `chunkSize` bytes at a time (at least 1), at most `maxBytes` in all.
    public init(chunkSize: Int = 64 * 1024, maxBytes: Int = FileTransport.defaultMaxBytes) {
        self.chunkSize = max(1, chunkSize)
        self.maxBytes = maxBytes
    }

    public func canLoad(_ url: URL) -> Bool { url.isFileURL }

    public func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        let task = FileTransportTask()
        let (chunkSize, maxBytes) = (chunkSize, maxBytes)
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try Self.read(request.url, chunkSize: chunkSize, maxBytes: maxBytes, task: task, handler: handler)
                handler.didComplete(error: task.isCancelled ? .cancelled : nil)
            } catch {
                handler.didComplete(error: error as? WebImageError ?? .invalidDownloadResponse("\(error)"))
            }
        }
        return task
    }

    public func shutdown() async throws {}

    private static func read(_ url: URL, chunkSize: Int, maxBytes: Int, task: FileTransportTask,
                             handler: any TransportResponseHandler) throws {
        let path = url.path
        try BoundedFileReader.withFile(path) { fd, size in
            if let size, size > maxBytes { throw WebImageError.responseTooLarge(limit: maxBytes) }
            let length = size.map { [("Content-Length", String($0))] } ?? []
            handler.didReceive(TransportResponseHead(status: nil, headers: length, url: url))
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            var total = 0
            while !task.isCancelled {
                let count = try chunk.withUnsafeMutableBytes { try BoundedFileReader.read(fd, into: $0, path: path) }
                if count == 0 { return }
                total += count
                guard total <= maxBytes else { throw WebImageError.responseTooLarge(limit: maxBytes) }
                chunk.withUnsafeBytes { handler.didReceive(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }
}

/// Cancellation flag for one file read.
final class FileTransportTask: TransportTask {
    private let cancelled = Atomic<Bool>(false)
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
