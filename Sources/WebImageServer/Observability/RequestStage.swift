import Dispatch

/// The stages a request's time is split into on the operator page's slowest-requests list: the pipeline's
/// timed stages (``ImageProxyMetrics/Stage``) and the waits around them.
enum RequestStage: String, Sendable, CaseIterable, Codable {
    /// Path, signature, options and source policy.
    case check
    /// Result-cache lookups: memory, disk, shared tier.
    case cache
    /// Waiting for a worker slot.
    case queue
    /// Waiting for the source's bytes from the origin.
    case download
    case decode
    case process
    case encode

    init(_ stage: ImageProxyMetrics.Stage) {
        switch stage {
        case .download: self = .download
        case .decode: self = .decode
        case .process: self = .process
        case .encode: self = .encode
        }
    }
}

extension RequestTrace {
    /// The time now when a request is traced (nil otherwise: untraced work reads no clock).
    static func clock() -> UInt64? {
        current == nil ? nil : DispatchTime.now().uptimeNanoseconds
    }

    /// Adds the time since `start` (from ``clock()``) to the current request's `stage`.
    static func end(_ stage: RequestStage, since start: UInt64?) {
        guard let start, let current else { return }
        current.add(stage, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
    }

    /// Runs `body`, its time added to the current request's `stage`.
    static func timing<Value, Failure: Error>(_ stage: RequestStage,
                                              _ body: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        let start = clock()
        defer { end(stage, since: start) }
        return try await body()
    }
}
