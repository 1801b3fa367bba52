/// What one demo step did: a row of the printed table and an entry of `report.json`.
struct DemoRecord: Codable, Equatable {
    /// The step (`photo jpeg q0.9`, `contact sheet`).
    var step: String
    /// The file written, relative to the demo directory.
    var file: String?
    /// The format written (`ImageFormat.rawValue`).
    var format: String
    var width: Int?
    var height: Int?
    var frames: Int?
    var bytes: Int?
    var encodeMs: Double?
    var decodeMs: Double?
    var thumbnailMs: Double?
    /// Partial images shown while the bytes arrived in slices (nil: no progressive decoder for the format).
    var progressiveUpdates: Int?
    /// Network steps: where the image came from (`none` = downloaded, `memory`, `disk`).
    var cacheType: String?
    /// Network steps: how long the load (or the whole pass) took.
    var loadMs: Double?
    /// Network steps: requests the server received for the step.
    var requests: Int?
    /// How close the decoded pixels came to the source (`lossless`, `38.2 dB`).
    var fidelity: String?
    var ok: Bool = false
    /// Why the step failed.
    var failure: String?

    init(step: String, file: String?, format: String) {
        self.step = step
        self.file = file
        self.format = format
    }
}

/// `report.json`: every step's record and whether all of them succeeded.
struct DemoReport: Codable, Equatable {
    var directory: String
    var ok: Bool
    var steps: [DemoRecord]
}

/// A demo check that did not hold; its text says what was expected.
struct DemoCheckFailure: Error, CustomStringConvertible {
    var description: String
}
