import Foundation
import WebImage

/// What the source cache keeps beside a source's bytes: when they were last confirmed current and the origin's
/// validators to confirm them again with (`ETag`, `Last-Modified`), so a stale copy costs a conditional request
/// and, when unchanged, a 304 with no body.
struct SourceRecord: Codable, Sendable, Equatable {
    /// Seconds since 1970 when the origin last sent or confirmed these bytes.
    var confirmedAt: Double
    var etag: String?
    var lastModified: String?

    init(confirmedAt: Date, validators: HTTPValidators?) {
        self.confirmedAt = confirmedAt.timeIntervalSince1970
        etag = validators?.etag
        lastModified = validators?.lastModified
    }

    /// The record stored as an entry's extended data; nil for entries written before records were kept
    /// (then the copy counts as stale and is fetched again).
    init?(stored: Data) {
        guard !stored.isEmpty, let record = try? JSONDecoder().decode(Self.self, from: stored) else { return nil }
        self = record
    }

    var stored: Data { (try? JSONEncoder().encode(self)) ?? Data() }

    /// What the conditional request sends: the ETag when there is one, else `Last-Modified`. Not both: a change
    /// within the second of `Last-Modified` leaves the date as it was, and some stores (moto, seen) answer 304
    /// to an unchanged date even when the ETag differs.
    var validators: HTTPValidators? {
        if let etag { return HTTPValidators(etag: etag) }
        return lastModified.map { HTTPValidators(lastModified: $0) }
    }

    /// Whether the copy may be served without asking the origin, `interval` after it was confirmed.
    func isFresh(at now: Date, for interval: Duration) -> Bool {
        Duration.seconds(now.timeIntervalSince1970 - confirmedAt) < interval
    }
}
