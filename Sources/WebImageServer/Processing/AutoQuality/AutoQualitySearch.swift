import Foundation
import WebImageCodecs

/// imgproxy Pro's `autoquality` searches over an encoder's quality, as functions of an `encode` (and a
/// `measure`): the service passes closures that encode its result and measure a candidate, tests fakes. Each
/// answer says how many encodes it took.
package enum AutoQualitySearch {
    /// `autoquality:size`: the highest quality in `range` whose output is at most `target` bytes; when none is,
    /// the smallest output tried (the lowest quality's, sizes falling with quality). The top of the range is
    /// tried first (one encode when it fits), then a binary search below it (`QualitySearch`, what
    /// `max_bytes` does in the encoders): at most ⌊log₂(n − 1)⌋ + 2 encodes for n > 1 qualities, 1 for one.
    package static func bySize(target bytes: Int, range: ClosedRange<Int>,
                       encode: (Int) throws -> Data) throws -> (quality: Int, data: Data, encodes: Int) {
        var encodes = 0
        let found = try QualitySearch.largestFittingQuality(bytes, requested: range.upperBound,
                                                            lowest: range.lowerBound) { quality in
            encodes += 1
            return try encode(quality)
        }
        return (found.quality, found.data, encodes)
    }

    /// `autoquality:dssim`: by binary search (DSSIM assumed to fall as quality rises), the lowest quality in
    /// `range` whose DSSIM is at most `target + allowedError`, stopping at the first quality tried whose DSSIM
    /// is within `allowedError` of `target`; when even the top of the range is above, the top's output. At
    /// most ⌊log₂ n⌋ + 1 encodes (and as many measures) for n qualities: 7 for 10…100. A NaN measure counts
    /// as above the target.
    package static func byDSSIM(target: Double, allowedError: Double, range: ClosedRange<Int>,
                        encode: (Int) throws -> Data,
                        measure: (Data) throws -> Double) throws -> (quality: Int, data: Data, dssim: Double, encodes: Int) {
        typealias Probe = (quality: Int, data: Data, dssim: Double)
        var low = range.lowerBound, high = range.upperBound, encodes = 0
        var lowestPassing: Probe?, highestFailing: Probe?
        while low <= high {
            let quality = low + (high - low) / 2
            let data = try encode(quality)
            encodes += 1
            let dssim = try measure(data)
            if abs(dssim - target) <= allowedError { return (quality, data, dssim, encodes) }
            if dssim <= target + allowedError {
                lowestPassing = (quality, data, dssim)
                high = quality - 1
            } else {
                highestFailing = (quality, data, dssim)
                low = quality + 1
            }
        }
        // Nothing passing means every quality tried failed, the last one the top of the range.
        guard let chosen = lowestPassing ?? highestFailing else {
            preconditionFailure("a range of qualities is never empty, so one was tried")
        }
        return (chosen.quality, chosen.data, chosen.dssim, encodes)
    }
}
