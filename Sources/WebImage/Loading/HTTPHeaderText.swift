/// Header-name matching and value trimming in plain Swift.
///
/// These run several times for every response; Foundation's `caseInsensitiveCompare` and
/// `trimmingCharacters(in:)` bridge through `NSString` on Linux and cost more than the rest of the head's handling.
extension StringProtocol {
    /// Equal to `other` ignoring ASCII case, the way HTTP header names (ASCII tokens) compare.
    func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { a, b in
            a == b || (a ^ b == 0x20 && (0x61...0x7A).contains(a | 0x20))
        }
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace around a value).
    var trimmingOptionalWhitespace: SubSequence {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }),
              let last = utf8.lastIndex(where: { !isWhitespace($0) }) else { return self[endIndex...] }
        // Both bounds fall on scalar boundaries: `first` is a lead byte, the byte after `last` follows a scalar's end.
        return self[first..<utf8.index(after: last)]
    }
}
