import Foundation

/// Hostile variants of real AVIF/HEIF files for the bad-input tests.
enum ISOBMFFMutation {
    /// `data` with every `ispe` box (image spatial extents) declaring `width × height`.
    static func declaringSize(_ data: Data, width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](data)
        let tag = Array("ispe".utf8)
        var index = 4
        while index + 16 <= bytes.count {
            if Array(bytes[index..<index + 4]) == tag {
                // type, then version and flags (4 bytes), then the 32-bit width and height.
                write(width, into: &bytes, at: index + 8)
                write(height, into: &bytes, at: index + 12)
            }
            index += 1
        }
        return Data(bytes)
    }

    private static func write(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
    }
}
