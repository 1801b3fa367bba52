import Foundation

/// IPTC-IIM datasets (tag marker 0x1C, record, dataset, size, data) filtered as imgproxy's `keep_copyright`
/// does: of record 2 (application) only 2:80 by-line, 2:110 credit and 2:116 copyright notice stay; other
/// records (the envelope) stay whole.
///
/// A malformed stream (a byte that is not a tag marker, a size past the end, an extended size over four bytes)
/// reads as no IPTC at all, as imgproxy drops it when its parser fails.
enum IPTCFilter {
    private static let keptApplicationDatasets: Set<UInt8> = [80, 110, 116]

    /// The kept datasets in their original order; nil when none is kept or the stream cannot be read.
    static func copyrightOnly(_ iptc: Data) -> Data? {
        guard let datasets = datasets(in: [UInt8](iptc)) else { return nil }
        let kept = datasets.filter { $0.record != 2 || keptApplicationDatasets.contains($0.dataset) }
        guard !kept.isEmpty else { return nil }
        return Data(kept.flatMap(\.bytes))
    }

    /// Each dataset with its raw bytes (header included); nil when the stream is malformed. Trailing zero
    /// padding (Photoshop pads resources to an even length) ends the stream.
    static func datasets(in bytes: [UInt8]) -> [(record: UInt8, dataset: UInt8, bytes: ArraySlice<UInt8>)]? {
        var result: [(record: UInt8, dataset: UInt8, bytes: ArraySlice<UInt8>)] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1C else {
                return bytes[index...].allSatisfy { $0 == 0 } ? result : nil
            }
            guard bytes.count - index >= 5 else { return nil }
            let start = index
            let record = bytes[index + 1], dataset = bytes[index + 2]
            var size = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            index += 5
            if size & 0x8000 != 0 {
                // Extended dataset: the low 15 bits give how many bytes hold the size.
                let sizeBytes = size & 0x7FFF
                guard sizeBytes <= 4, bytes.count - index >= sizeBytes else { return nil }
                size = bytes[index ..< index + sizeBytes].reduce(0) { $0 << 8 | Int($1) }
                index += sizeBytes
            }
            guard size <= bytes.count - index else { return nil }
            index += size
            result.append((record, dataset, bytes[start ..< index]))
        }
        return result
    }
}
