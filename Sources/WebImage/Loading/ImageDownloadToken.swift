import WebImageCore
import Foundation

/// One caller's handle on a download; ``cancel()`` fails this caller alone with `cancelled` (2002) and
/// stops the network task when no caller is left.
public final class ImageDownloadToken: ImageLoadingToken {
    public let url: URL
    let callerID: Int
    let operation: DownloadOperation?

    init(url: URL, callerID: Int, operation: DownloadOperation?) {
        self.url = url
        self.callerID = callerID
        self.operation = operation
    }

    public func cancel() {
        operation?.detach(callerID)
    }
}
