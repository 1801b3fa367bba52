/// The integers of the children's wire formats (PDF pages, video frames): little-endian, whatever the machine.
extension [UInt8] {
    package mutating func append(le value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension FixedWidthInteger {
    /// The value of little-endian `bytes` (exactly `MemoryLayout<Self>.size` of them).
    package init(littleEndianBytes bytes: some Collection<UInt8>) {
        self = bytes.reversed().reduce(Self.zero) { $0 << 8 | Self($1) }
    }
}
