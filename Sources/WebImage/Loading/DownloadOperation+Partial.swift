import WebImageCore
import Foundation

/// The progressive-decoding bookkeeping of one download (kept in the operation's locked state).
struct PartialDecodeState {
    /// The decode options of the first caller that asked for partial images; the decoder is made for them.
    var options: ImageDecodeOptions?
    let decoder = ProgressiveDecoderBox()
    /// A partial decode is in flight; new chunks do not start another.
    var isRunning = false
    /// No coder decodes this format incrementally: stop trying.
    var isUnsupported = false
    var lastStart: ContinuousClock.Instant?
    /// The transfer ended while a partial decode ran; finish when it returns.
    var pendingEnd: Result<Void, WebImageError>?
}

/// One partial decode to run: the bytes so far and the options to decode them with.
struct PartialJob: Sendable {
    let data: Data
    let options: ImageDecodeOptions
}

/// Holds the download's one progressive decoder.
///
/// `@unchecked Sendable`: only the single in-flight partial decode touches it (guarded by `isRunning`).
final class ProgressiveDecoderBox: @unchecked Sendable {
    private var decoder: (any ProgressiveImageDecoder)?
    private var unsupported = false

    /// Feeds `job.data` to the decoder (made on first use); nil when nothing new can be shown.
    func decode(_ job: PartialJob, coders: CodersManager) -> (image: Image?, unsupported: Bool) {
        if decoder == nil, !unsupported {
            decoder = coders.progressiveDecoder(for: job.data, options: job.options)
            // Too few bytes may not show the signature yet: give up only once the format is known or 4 KiB came.
            unsupported = decoder == nil && (ImageFormat(sniffing: job.data) != .undefined || job.data.count >= 4096)
        }
        guard let decoder else { return (nil, unsupported) }
        let image = try? decoder.decode(job.data, isFinished: false)
        return (image, false)
    }
}

extension DownloadOperation {
    /// Whether the bytes so far should go to a partial decode now (under the lock): someone wants partial
    /// images, none is running, and the last one started at least `interval` ago.
    func nextPartialJob(_ state: inout State, now: ContinuousClock.Instant, interval: Duration) -> PartialJob? {
        guard !state.partial.isRunning, !state.partial.isUnsupported else { return nil }
        if let last = state.partial.lastStart, now - last < interval { return nil }
        if state.partial.options == nil {
            guard let first = state.machine.callers.first(where: \.wantsPartials) else { return nil }
            state.partial.options = first.decodeOptions
        }
        guard let options = state.partial.options else { return nil }
        state.partial.isRunning = true
        state.partial.lastStart = now
        return PartialJob(data: state.body, options: options)
    }

    /// Decodes a partial image on the delivery queue, hands it to the callers that asked for it (same decode
    /// options), then finishes the download if it ended meanwhile.
    func runPartialDecode(_ job: PartialJob) {
        let box = state.withLock { $0.partial.decoder }
        downloader.deliveryQueue.async {
            let (image, unsupported) = box.decode(job, coders: self.downloader.coders)
            if let image {
                let recipients = self.state.withLock { state in
                    state.machine.isRunning
                        ? state.machine.callers.filter { $0.wantsPartials && $0.decodeOptions == job.options }
                            .compactMap(\.partialImage)
                        : []
                }
                let stamped = image.recordingDecodeOptions(job.options)
                let partial = stamped.isIncremental ? stamped : stamped.with(isIncremental: true)
                for handler in recipients { handler(partial) }
            }
            let pending = self.state.withLock { state in
                state.partial.isRunning = false
                state.partial.isUnsupported = state.partial.isUnsupported || unsupported
                defer { state.partial.pendingEnd = nil }
                return state.partial.pendingEnd
            }
            if let pending { self.complete(pending) }
        }
    }
}
