import Foundation
import WebImage

extension ImageProxy {
    /// imgproxy's fallback image: the URL's (imgproxy Pro's `fallback_image_url`, fetched and cached as a source
    /// is) or else the operator's image, processed with the request's options, when the source could not be had
    /// (missing, failing, too slow, not an image). Not cached: the source may come back. nil when there is no
    /// fallback image (or the URL's cannot be had either), the error is not the source's, or `deadline` (the
    /// request's) passes.
    func fallback(for job: ProxyJob, after error: ProxyError,
                  deadline: ContinuousClock.Instant) async -> (result: ProcessedResult, status: Int)? {
        guard Self.isSourceFailure(error) else { return nil }
        let processor = self.processor, statistics = self.statistics, limiter = self.limiter, sources = self.sources
        let until = WorkDeadline(deadline)
        do throws(ProxyError) {
            let bytes: Data
            if let url = job.fallbackSource {
                bytes = try await until.bound(timeout: .processingTimeout) { () async throws(ProxyError) in
                    try await sources.data(for: url)
                }.data
            } else if let operatorImage = configuration.processing.fallbackImage {
                bytes = operatorImage
            } else {
                return nil
            }
            try await limiter.acquire(until: until, timeout: .processingTimeout)
            let made = try await workers.run(until: until, timeout: .processingTimeout,
                                             { () throws(ProxyError) in
                                                 try processor.process(SourceBytes(data: bytes), options: job.options,
                                                                       format: job.format, timing: statistics.instruments,
                                                                       chain: job.chain.map { ($0.options, nil) })
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
