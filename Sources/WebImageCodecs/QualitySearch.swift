import Foundation

/// ``ImageEncodeOptions/maxFileSize`` for the lossy encoders: the largest whole quality up to the requested
/// one whose output fits, by binary search; when none fits, the smallest output tried (the lowest quality's).
enum QualitySearch {
    /// `encode` takes a quality `lowest`…`requested` (JPEG: 1…100, WebP and AVIF: 0…100).
    static func largestFitting(_ limit: Int, requested: Int, lowest: Int,
                               _ encode: (Int) throws -> Data) throws -> Data {
        let best = try encode(requested)
        if best.count <= limit { return best }
        var low = lowest, high = requested - 1
        var fitting: Data?, smallest = best
        while low <= high {
            let middle = (low + high) / 2
            let candidate = try encode(middle)
            if candidate.count <= limit {
                fitting = candidate
                low = middle + 1
            } else {
                if candidate.count < smallest.count { smallest = candidate }
                high = middle - 1
            }
        }
        return fitting ?? smallest
    }
}
