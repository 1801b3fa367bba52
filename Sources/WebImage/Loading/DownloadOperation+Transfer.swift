import WebImageCore
import Foundation

extension DownloadOperation {
    /// The response head: answer a Basic challenge once, apply the response modifier, validate, report (0, N).
    func didReceive(_ head: TransportResponseHead, attempt: Int) {
        guard isCurrent(attempt) else { return }
        recordFirstByte()
        if head.status == 401, let authorization = downloader.configuration.basicAuthorization,
           retryWithAuthorization(authorization, after: attempt) {
            return
        }
        var head = head
        if let modifier = request.responseModifier {
            guard let modified = modifier(head) else {
                fail(.invalidDownloadResponse("the response modifier returned nil"), attempt: attempt)
                return
            }
            head = modified
        }
        // An encoded body's Content-Length counts encoded bytes, and the transport hands over decoded ones.
        let expected = head.isContentEncoded ? -1 : head.expectedContentLength ?? -1
        if let error = validate(head, expected: expected) {
            fail(error, attempt: attempt)
            return
        }
        if request.options.contains(.handleCookies) { downloader.cookies.store(head, for: head.url) }
        let maxBytes = downloader.configuration.maxResponseBytes
        let handlers: [ImageDownloader.ProgressHandler]? = state.withLock { state in
            guard attempt == state.attempt, !state.transferEnded else { return nil }
            state.head = head
            state.expected = expected
            // A server's Content-Length is its claim: reserve no more than the limit, nor than 128 MiB when the
            // caller lifted the limit, beyond which the body grows as it arrives.
            if expected > 0 { state.body.reserveCapacity(min(expected, maxBytes, 128 << 20)) }
            _ = state.progress.milestone(received: 0, expected: expected, now: .now)
            return state.machine.callers.compactMap(\.progress)
        }
        guard let handlers else { return }
        downloader.events.post(.receivedResponse(url, head))
        for handler in handlers { handler(0, expected) }
    }

    /// Body bytes: append (within the size limit), report throttled progress, maybe start a partial decode.
    func didReceive(bytes: UnsafeRawBufferPointer, attempt: Int) {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return }
        let maxBytes = downloader.configuration.maxResponseBytes
        let partialInterval = downloader.configuration.minimumPartialDecodeInterval
        enum Step { case ignore, tooLarge([any TransportTask]), progress((Int, Int)?, [ImageDownloader.ProgressHandler], PartialJob?) }
        let step: Step = state.withLock { state in
            guard attempt == state.attempt, !state.transferEnded, state.machine.isRunning else { return .ignore }
            guard state.body.count + bytes.count <= maxBytes else { return .tooLarge(endTransfer(&state)) }
            state.body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            let now = ContinuousClock.now
            let report = state.progress.chunk(received: state.body.count, expected: state.expected, now: now)
            let handlers = report == nil ? [] : state.machine.callers.compactMap(\.progress)
            return .progress(report, handlers, nextPartialJob(&state, now: now, interval: partialInterval))
        }
        switch step {
        case .ignore:
            return
        case .tooLarge(let tasks):
            for task in tasks { task.cancel() }
            transferDidEnd(.failure(.responseTooLarge(limit: maxBytes)))
        case .progress(let report, let handlers, let job):
            downloader.instruments.bytesReceived.increment(by: bytes.count)
            if let report { for handler in handlers { handler(report.0, report.1) } }
            if let job { runPartialDecode(job) }
        }
    }

    /// The transfer ended (an error, or nil when the whole body arrived).
    func didComplete(error: WebImageError?, attempt: Int) {
        let ended: Bool = state.withLock { state in
            guard attempt == state.attempt, !state.transferEnded, state.machine.isRunning else { return false }
            state.transferEnded = true
            state.tasks.removeAll()
            return true
        }
        guard ended else { return }
        transferDidEnd(error.map { Result<Void, WebImageError>.failure($0) } ?? .success(()))
    }

    /// Ends the current attempt with `error`, cancelling its transfer.
    func fail(_ error: WebImageError, attempt: Int) {
        let tasks: [any TransportTask]? = state.withLock { state in
            guard attempt == state.attempt, !state.transferEnded else { return nil }
            return endTransfer(&state)
        }
        guard let tasks else { return }
        for task in tasks { task.cancel() }
        transferDidEnd(.failure(error))
    }

    private func isCurrent(_ attempt: Int) -> Bool {
        state.withLock { attempt == $0.attempt && !$0.transferEnded && $0.machine.isRunning }
    }

    /// Restarts the request with `Authorization` after a 401, once per download; false if already tried.
    private func retryWithAuthorization(_ authorization: String, after attempt: Int) -> Bool {
        let retry: (TransportRequest, Int, [any TransportTask])? = state.withLock { state in
            guard !state.authAttempted, attempt == state.attempt else { return nil }
            state.authAttempted = true
            state.attempt += 1
            state.transportRequest.setValue(authorization, forHeader: "Authorization")
            defer { state.tasks.removeAll() }
            return (state.transportRequest, state.attempt, Array(state.tasks.values))
        }
        guard let retry else { return false }
        let (request, next, oldTasks) = retry
        for task in oldTasks { task.cancel() }
        startTransfer(request, attempt: next)
        return true
    }

    /// The error a response head earns: 304, an unacceptable status or type, or a declared size (`expected`,
    /// −1 when unknown) over the limit.
    private func validate(_ head: TransportResponseHead, expected: Int) -> WebImageError? {
        let configuration = downloader.configuration
        guard let status = head.status else { return nil }
        if status == 304 { return .cacheNotModified }
        guard configuration.acceptableStatusCodes.contains(status) else {
            return .invalidDownloadStatusCode(status, headers: head.headers)
        }
        if let acceptable = configuration.acceptableContentTypes, !acceptable.contains(head.mimeType ?? "") {
            return .invalidDownloadContentType(head.mimeType)
        }
        if expected > configuration.maxResponseBytes {
            return .responseTooLarge(limit: configuration.maxResponseBytes)
        }
        return nil
    }
}
