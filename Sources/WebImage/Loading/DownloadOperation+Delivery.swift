import WebImageCore
import Foundation

extension DownloadOperation {
    /// The transfer is over: wait for a running partial decode, report (N, N), decrypt, then deliver.
    func transferDidEnd(_ result: Result<Void, WebImageError>) {
        let proceed: Bool = state.withLock { state in
            guard state.partial.isRunning else { return true }
            state.partial.pendingEnd = result
            return false
        }
        if proceed { complete(result) }
    }

    /// Builds the outcome off the network thread and hands it to every caller.
    func complete(_ result: Result<Void, WebImageError>) {
        if case .failure(let error) = result {
            finish(.failure(error))
            return
        }
        let (body, head, report, handlers) = state.withLock { state in
            let report = state.progress.end(total: state.body.count, now: .now)
            return (state.body, state.head, report, report == nil ? [] : state.machine.callers.compactMap(\.progress))
        }
        if let report { for handler in handlers { handler(report.0, report.1) } }
        let decryptor = request.decryptor
        downloader.deliveryQueue.async {
            guard !body.isEmpty else {
                self.finish(.failure(.badImageData(.empty)), onDeliveryQueue: true)
                return
            }
            guard let decryptor else {
                self.finish(.success(DownloadedBody(data: body, head: head)), onDeliveryQueue: true)
                return
            }
            guard let data = decryptor(body, head) else {
                self.finish(.failure(.badImageData(.corrupt("the decryptor returned nil"))), onDeliveryQueue: true)
                return
            }
            self.finish(.success(DownloadedBody(data: data, head: head)), onDeliveryQueue: true)
        }
    }

    /// Moves the task to finishing, frees its slot, posts stop/finish, and delivers to the attached callers.
    private func finish(_ outcome: DownloadOutcome, onDeliveryQueue: Bool = false) {
        let (callers, releasesSlot, done) = state.withLock { state in
            let callers = state.machine.finish(outcome)
            // Tokens may outlive the download: keep no bytes or decoder beyond the outcome being delivered.
            state.body = Data()
            state.partial = PartialDecodeState()
            return (callers, takeSlot(&state), state.machine.isDone)
        }
        guard let callers else { return }
        cancelDeadline()
        reportFinished(outcome)
        downloader.events.post(.stopped(url))
        if case .success = outcome { downloader.events.post(.finished(url)) }
        if done { downloader.unregister(self) }
        if releasesSlot { downloader.releaseSlot() }
        deliver(outcome, to: callers, onDeliveryQueue: onDeliveryQueue)
    }

    /// Decodes once per distinct decode options and completes each caller that is still attached.
    ///
    /// Already on the delivery queue, the first group is served in place (one thread hop less per download);
    /// other groups decode in parallel on the queue.
    func deliver(_ outcome: DownloadOutcome, to callers: [DownloadCaller], onDeliveryQueue: Bool = false) {
        var jobs: [@Sendable () -> Void]
        switch outcome {
        case .failure(let error):
            jobs = [{ for caller in callers { self.claimAndComplete(caller.id, with: .failure(error)) } }]
        case .success(let body):
            // Callers sharing decode options share one decode; callers of the bytes alone decode nothing.
            let bytesCallers = callers.filter { $0.bytesCompletion != nil }
            jobs = Dictionary(grouping: callers.filter { $0.bytesCompletion == nil }, by: \.decodeOptions)
                .map { options, group in
                    {
                        let result = self.decode(body, options: options)
                        for caller in group { self.claimAndComplete(caller.id, with: result) }
                    }
                }
            if !bytesCallers.isEmpty {
                jobs.insert({ for caller in bytesCallers { self.claimAndDeliverBytes(caller.id, body) } }, at: 0)
            }
        }
        let inline = onDeliveryQueue && !jobs.isEmpty ? jobs.removeFirst() : nil
        for job in jobs { downloader.deliveryQueue.async(execute: job) }
        inline?()
    }

    private func decode(_ body: DownloadedBody, options: ImageDecodeOptions) -> Result<ImageDownloadResult, WebImageError> {
        do {
            let image = try downloader.instruments.coding.timeDecode {
                try downloader.coders.decode(body.data, options: options)
            }
            return .success(ImageDownloadResult(image: image, data: body.data, response: body.head))
        } catch {
            let failure = error as? WebImageError ?? .badImageData(.corrupt(String(describing: error)))
            reportUndecodable(failure, bytes: body.data.count)
            return .failure(failure)
        }
    }

    private func claimAndDeliverBytes(_ callerID: Int, _ body: DownloadedBody) {
        let (caller, becameDone) = state.withLock { $0.machine.claim(callerID) }
        if becameDone { downloader.unregister(self) }
        caller?.bytesCompletion?(body)
    }

    private func claimAndComplete(_ callerID: Int, with result: Result<ImageDownloadResult, WebImageError>) {
        let (caller, becameDone) = state.withLock { $0.machine.claim(callerID) }
        if becameDone { downloader.unregister(self) }
        caller?.completion(result)
    }
}
