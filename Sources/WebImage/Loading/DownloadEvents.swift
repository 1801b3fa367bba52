import WebImageCore
import Foundation
import Synchronization

/// A download's lifecycle events, in order: started, receivedResponse, stopped, then finished (success only).
///
/// SDWebImage posts these as notifications; here observers are closures added with
/// ``ImageDownloader/addObserver(_:)``. They run on the downloader's threads: keep them short.
public enum DownloadEvent: Sendable {
    /// The request was sent.
    case started(URL)
    /// The response head arrived and was accepted.
    case receivedResponse(URL, TransportResponseHead)
    /// The transfer ended (finished, failed or cancelled).
    case stopped(URL)
    /// The whole body arrived (sent after ``stopped(_:)``).
    case finished(URL)
}

/// Identifies an observer for ``ImageDownloader/removeObserver(_:)``.
public struct DownloadObserverToken: Sendable, Hashable {
    let id: Int
}

/// The registered observers.
final class DownloadEventCenter: Sendable {
    private let observers = Mutex<(next: Int, handlers: [Int: @Sendable (DownloadEvent) -> Void])>((0, [:]))

    func add(_ handler: @escaping @Sendable (DownloadEvent) -> Void) -> DownloadObserverToken {
        observers.withLock { state in
            state.next += 1
            state.handlers[state.next] = handler
            return DownloadObserverToken(id: state.next)
        }
    }

    func remove(_ token: DownloadObserverToken) {
        _ = observers.withLock { $0.handlers.removeValue(forKey: token.id) }
    }

    func post(_ event: DownloadEvent) {
        let handlers = observers.withLock { $0.handlers.isEmpty ? [] : $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event) }
    }
}
