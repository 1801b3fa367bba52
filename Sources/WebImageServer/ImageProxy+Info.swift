import Foundation
import WebImage

/// One checked `/info` request: its source, its info options and the key its answer is cached under.
struct InfoJob: Sendable {
    var source: URL
    var options: InfoOptions
    var key: String
}

extension ImageProxy {
    /// The answer to `/info/<signature>/<info options>/<source>`: imgproxy Pro's info JSON (the source's size,
    /// format, upright dimensions and orientation, EXIF, IPTC and XMP by default; the options ask for more).
    /// Signed like an image URL; cached in the result tiers under the options and the source, so a second
    /// request fetches nothing; errors as the image route answers them.
    public func info(_ request: ProxyRequest) async -> ProxyResponse {
        do throws(ProxyError) {
            guard request.path.hasPrefix("/info/") else { throw .badRequest("not an info path") }
            let job = try infoJob(for: request.path.dropFirst("/info".count))
            let answer = try await infoAnswer(job, deadline: deadline(from: request.arrival))
            return .plain(200, String(decoding: answer.data, as: UTF8.self), contentType: "application/json")
        } catch {
            return errorResponse(error)
        }
    }

    /// `IMGPROXY_INFO_*`'s reading of info options.
    var infoParser: InfoOptionsParser {
        InfoOptionsParser(presets: configuration.info.presets,
                          onlyPresets: configuration.info.onlyPresets ?? configuration.processing.onlyPresets,
                          allowed: Set(configuration.info.allowedOptions))
    }

    /// Parses and checks an info path: signature (403), options (400; 403 for one not allowed), expiry (404),
    /// source (400/404).
    func infoJob(for path: Substring) throws(ProxyError) -> InfoJob {
        let start = RequestTrace.clock()
        defer { RequestTrace.end(.check, since: start) }
        let parser = infoParser
        let parsed = try ProxyPath(path, onlyPresets: parser.onlyPresets)
        try statistics.instruments.tracing.run(ImageProxySpans.signature) { _ throws(ProxyError) in try checkSignature(parsed) }
        let options = try parser.options(parsed.optionSegments)
        if let expires = options.expires, expires <= Int(Date().timeIntervalSince1970) { throw .notFound("the URL expired") }
        let source = try checkedSource(parsed.source)
        return InfoJob(source: source, options: options, key: InfoOptionTable.key(source: source.absoluteString, options: options))
    }

    /// The answer from the result tiers, or made once however many ask by `deadline`.
    private func infoAnswer(_ job: InfoJob, deadline: ContinuousClock.Instant) async throws(ProxyError) -> ProcessedResult {
        if let hit = results.memoryResult(forKey: job.key) {
            statistics.record(\.memoryHits)
            return hit
        }
        if let hit = await results.diskResult(forKey: job.key) {
            statistics.record(\.diskHits)
            return hit
        }
        statistics.record(\.misses)
        guard !isStoppingNow else { throw .unavailable("the service is shutting down") }
        let outcome = await flights.run(key: job.key, deadline: deadline, timeout: .processingTimeout,
                                        joined: { [statistics] in statistics.record(\.coalesced) }) { shared in
            do throws(ProxyError) {
                return .success(try await self.makeInfo(job, until: shared))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The shared tiers' answer, else one read from the source on a worker (the pixel options decode there,
    /// within the deadline), stored in every tier.
    private func makeInfo(_ job: InfoJob, until deadline: WorkDeadline) async throws(ProxyError) -> ProcessedResult {
        if let stored = results.storedResult(forKey: job.key) { return stored }
        if let hit = await results.sharedResult(forKey: job.key).result { return hit }
        let reader = InfoReader(processor: processor, videoDefaults: baseOptions)
        let json = try await withSource(job.source, until: deadline) { source throws(ProxyError) in
            try reader.answer(source, options: job.options).json()
        }
        // JSON is no image format: the tiers keep it as `undefined`, which only this key's readers see.
        let result = ProcessedResult(data: json, format: .undefined)
        await results.store(result, forKey: job.key)
        return result
    }
}
