import Foundation
import Synchronization

/// The URLs that failed for a permanent reason, keyed by absolute string, behind a `Mutex`.
///
/// An atomic count lets the hot path skip the lock entirely while the list is empty (the usual case).
final class FailedURLList: Sendable {
    private let urls = Mutex<Set<String>>([])
    private let count = Atomic<Int>(0)

    func contains(_ url: String) -> Bool {
        guard count.load(ordering: .acquiring) > 0 else { return false }
        return urls.withLock { $0.contains(url) }
    }

    func insert(_ url: String) {
        urls.withLock { urls in
            urls.insert(url)
            count.store(urls.count, ordering: .releasing)
        }
    }

    func remove(_ url: String) {
        guard count.load(ordering: .acquiring) > 0 else { return }
        urls.withLock { urls in
            urls.remove(url)
            count.store(urls.count, ordering: .releasing)
        }
    }

    func removeAll() {
        urls.withLock { urls in
            urls.removeAll()
            count.store(0, ordering: .releasing)
        }
    }
}

extension WebImageError {
    /// The built-in failed-URL rule: whether this error means retrying the URL cannot help.
    ///
    /// Blocks: 4xx statuses except 408 (timeout) and 429 (rate limited), undecodable data (1001), an unusable
    /// response or content type (2003, 2004), no loader for the URL (1000), a TLS failure or redirect loop,
    /// a body over the size limit. Never blocks: cancellation (2002), timeouts, refused or reset connections,
    /// DNS failures, 5xx statuses, 304, a request modifier refusing (2000), cache and encoding failures, and
    /// transport errors of unknown kind.
    public var isPermanentLoadFailure: Bool {
        switch self {
        case .invalidDownloadStatusCode(let status, _):
            return (400..<500).contains(status) && status != 408 && status != 429
        case .badImageData, .invalidDownloadResponse, .invalidDownloadContentType, .invalidURL, .responseTooLarge:
            return true
        case .transport(let failure):
            return failure.kind == .tls || failure.kind == .tooManyRedirects
        case .cancelled, .cacheNotModified, .blackListed, .invalidDownloadOperation, .encodingFailed, .cacheFailure,
             .invalidOption:
            return false
        }
    }
}
