import Foundation

/// ``ImageEncodeOptions/maxFileSize`` for the lossy encoders, and the service's `autoquality:size`: the largest
/// whole quality up to the requested one whose output fits, by binary search; when none fits, the smallest
/// output tried (the lowest quality's, sizes falling with quality).
package enum QualitySearch {
    /// `encode` takes a quality `lowest`…`requested` (JPEG: 1…100, WebP and AVIF: 0…100).
    static func largestFitting(_ limit: Int, requested: Int, lowest: Int,
                               _ encode: (Int) throws -> Data) throws -> Data {
        try largestFittingQuality(limit, requested: requested, lowest: lowest, encode).data
    }

    /// ``largestFitting(_:requested:lowest:_:)`` with the quality of the output it chose.
    package static func largestFittingQuality(_ limit: Int, requested: Int, lowest: Int,
                                              _ encode: (Int) throws -> Data) throws -> (quality: Int, data: Data) {
        let best = try encode(requested)
        if best.count <= limit { return (requested, best) }
        var low = lowest, high = requested - 1
        var fitting: (quality: Int, data: Data)?, smallest = (quality: requested, data: best)
        while low <= high {
            let middle = (low + high) / 2
            let candidate = try encode(middle)
            if candidate.count <= limit {
                fitting = (middle, candidate)
                low = middle + 1
            } else {
                if candidate.count < smallest.data.count { smallest = (middle, candidate) }
                high = middle - 1
            }
        }
        return fitting ?? smallest
    }
}
