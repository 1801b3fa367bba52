import Foundation
import WebImage

/// One timed load through a manager, as the demo's network steps make them.
struct DemoLoad: Sendable {
    var outcome: Result<ImageLoadResult, WebImageError>
    var millis: Double

    /// Loads `url` with `manager.image(for:)`, timing it.
    static func run(_ manager: ImageManager, _ url: URL, options: WebImageOptions = [],
                    context: WebImageContext = WebImageContext()) async -> DemoLoad {
        let start = ContinuousClock.now
        let outcome: Result<ImageLoadResult, WebImageError>
        do {
            outcome = .success(try await manager.image(for: url, options: options, context: context))
        } catch {
            outcome = .failure(error)
        }
        return DemoLoad(outcome: outcome, millis: Self.millis(since: start))
    }

    /// Milliseconds from `start` to now.
    static func millis(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }

    /// The image, or nil on failure.
    var image: Image? { try? outcome.get().image }

    /// The cache type's name (`none`, `memory`, `disk`), or nil on failure.
    var cacheType: String? { (try? outcome.get()).map(\.cacheType.name) }

    /// A record for step `step`, filled from the result; `ok` is left for the caller's check.
    func record(_ step: String) -> DemoRecord {
        var record = DemoRecord(step: step, file: nil, format: "-")
        record.loadMs = millis
        record.cacheType = cacheType
        switch outcome {
        case .success(let result):
            record.format = result.image.format.rawValue
            record.width = result.image.pixelWidth
            record.height = result.image.pixelHeight
            record.frames = result.image.frameCount
            record.bytes = result.data?.count
        case .failure(let error):
            record.failure = "error \(error.code): \(error.description)"
        }
        return record
    }
}

extension DemoRecord {
    /// Marks the record ok when `condition` holds, else failed with `expectation` (and any error already noted).
    mutating func check(_ condition: Bool, _ expectation: String) {
        ok = condition
        if !condition { failure = "expected \(expectation)" + (failure.map { "; got \($0)" } ?? "") }
    }
}
