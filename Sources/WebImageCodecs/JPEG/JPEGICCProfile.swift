/// Collects the ICC profile a JPEG carries in APP2 `ICC_PROFILE` segments: each holds a sequence number
/// (1-based) and the chunk count, then a piece of the profile; the pieces are joined in sequence order.
struct JPEGICCProfile: Equatable {
    private static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    private var chunks: [Int: [UInt8]] = [:]
    private var expectedCount = 0

    /// Takes one APP2 segment body; ignores segments that are not ICC chunks.
    mutating func add(app2 segment: UnsafeRawBufferPointer) {
        let header = Self.signature.count + 2
        guard segment.count > header, segment.starts(with: Self.signature) else { return }
        let sequence = Int(segment[Self.signature.count]), count = Int(segment[Self.signature.count + 1])
        guard sequence >= 1, count >= 1, sequence <= count, expectedCount == 0 || expectedCount == count else {
            return
        }
        expectedCount = count
        chunks[sequence] = Array(segment[header...])
    }

    /// The joined profile; nil when there is none or a chunk is missing.
    var bytes: [UInt8]? {
        guard expectedCount > 0, chunks.count == expectedCount else { return nil }
        return (1...expectedCount).flatMap { chunks[$0] ?? [] }
    }

    /// APP2 segments (markers included) carrying `profile`, at most 65,519 profile bytes each.
    static func segments(for profile: [UInt8]) -> [UInt8] {
        let chunkSize = 65_519
        let count = (profile.count + chunkSize - 1) / chunkSize
        guard count >= 1, count <= 255 else { return [] }
        var output: [UInt8] = []
        for index in 0..<count {
            let piece = profile[index * chunkSize ..< min(profile.count, (index + 1) * chunkSize)]
            let length = 2 + signature.count + 2 + piece.count
            output += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + signature
            output += [UInt8(index + 1), UInt8(count)] + piece
        }
        return output
    }
}
