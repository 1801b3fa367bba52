import Foundation
import WebImage

/// Replays a download of encoded bytes through the progressive decoder, as a slow network would deliver them.
enum ProgressiveCheck {
    /// How many growing prefixes the bytes arrive in.
    static let slices = 8

    /// Feeds `data` in ``slices`` growing prefixes and returns how many partial images were shown, or nil when
    /// no coder decodes this format incrementally. The final image must match the one-shot `decoded` one.
    static func run(_ data: Data, decoded: Image) throws -> Int? {
        guard let decoder = CodersManager.shared.progressiveDecoder(for: data, options: ImageDecodeOptions()) else {
            return nil
        }
        var partials = 0
        for slice in 1..<slices {
            let prefix = data.prefix(data.count * slice / slices)
            if let partial = try decoder.decode(prefix, isFinished: false) {
                guard partial.isIncremental else { throw DemoCheckFailure(description: "a partial image is not marked incremental") }
                partials += 1
            }
        }
        guard let final = try decoder.decode(data, isFinished: true), !final.isIncremental else {
            throw DemoCheckFailure(description: "the progressive decoder gave no final image")
        }
        guard final.frames[0].pixels == decoded.frames[0].pixels else {
            throw DemoCheckFailure(description: "the progressive decoder's final image differs from the one-shot decode")
        }
        return partials
    }
}
