import Foundation
import WebImage

extension ImageProxy {
    /// imgproxy's fallback image: the operator's image processed with the request's options, when the source
    /// could not be had (missing, failing, too slow, not an image). Not cached: the source may come back.
    /// nil when there is no fallback image, the error is not the source's, or `deadline` (the request's) passes.
    func fallback(for job: ProxyJob, after error: ProxyError,
                  deadline: ContinuousClock.Instant) async -> (result: ProcessedResult, status: Int)? {
        guard let bytes = configuration.processing.fallbackImage, Self.isSourceFailure(error) else { return nil }
        let processor = self.processor, statistics = self.statistics, limiter = self.limiter
        let until = WorkDeadline(deadline)
        do throws(ProxyError) {
            try await limiter.acquire(until: until, timeout: .processingTimeout)
            let made = try await workers.run(until: until, timeout: .processingTimeout,
                                             { () throws(ProxyError) in
                                                 try processor.process(SourceBytes(data: bytes), options: job.options,
                                                                       format: job.format, timing: statistics.instruments)
                                             },
                                             onEnd: { limiter.release() })
            let status = configuration.responses.fallbackStatus
            return (ProcessedResult(data: made.data, format: made.format), status == 0 ? error.status : status)
        } catch {
            return nil
        }
    }

    /// The failures of getting the source, as opposed to the request's own (signature, options, policy) or the
    /// service's (queue, shutdown).
    static func isSourceFailure(_ error: ProxyError) -> Bool {
        switch error {
        case .notFound, .sourceClientError, .badGateway, .gatewayTimeout, .unprocessable: true
        default: false
        }
    }
}
