import Dispatch
import Foundation
import Metrics
import Synchronization
import WebImageCore

/// The decode and encode timers of one component, one per format, made on the first use of each format.
///
/// With swift-metrics' no-op factory nothing is timed at all: not even the clock is read.
final class CodingTimers: Sendable {
    private typealias Timers = Mutex<[ImageFormat: CoreMetrics.Timer]>

    private let factory: any MetricsFactory
    private let isEnabled: Bool
    private let decodeTimers = Timers([:])
    private let encodeTimers = Timers([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
        isEnabled = !(factory is NOOPMetricsHandler)
    }

    /// Runs `decode`, recording its duration under the decoded image's format when it succeeds.
    func timeDecode(_ decode: () throws -> Image) rethrows -> Image {
        guard isEnabled else { return try decode() }
        let start = DispatchTime.now().uptimeNanoseconds
        let image = try decode()
        record(since: start, format: image.format, in: decodeTimers, label: WebImageMetrics.decodeDuration)
        return image
    }

    /// Runs `encode` (to `format`), recording its duration when it succeeds.
    func timeEncode(as format: ImageFormat, _ encode: () throws -> Data) rethrows -> Data {
        guard isEnabled else { return try encode() }
        let start = DispatchTime.now().uptimeNanoseconds
        let data = try encode()
        record(since: start, format: format, in: encodeTimers, label: WebImageMetrics.encodeDuration)
        return data
    }

    private func record(since start: UInt64, format: ImageFormat, in timers: borrowing Timers, label: String) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let timer = timers.withLock { timers in
            if let timer = timers[format] { return timer }
            let dimensions = [(WebImageMetrics.Dimension.format, format.rawValue)]
            let timer = CoreMetrics.Timer(label: label, dimensions: dimensions, factory: factory)
            timers[format] = timer
            return timer
        }
        timer.recordNanoseconds(Int64(elapsed))
    }
}
