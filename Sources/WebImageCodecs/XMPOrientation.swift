import WebImageCore

/// Reads `tiff:Orientation` from an XMP packet (JPEG APP1 `http://ns.adobe.com/xap/1.0/`, PNG iTXt
/// `XML:com.adobe.xmp`, WebP `XMP `), as photo editors on phones write it: an attribute
/// (`tiff:Orientation="6"`) or an element (`<tiff:Orientation>6</tiff:Orientation>`).
///
/// A text search rather than an XML parser: only this one property matters, a packet is at most a few
/// kilobytes before it, and malformed XML must still not fail a decode. Values outside 1…8 read as absent.
enum XMPOrientation {
    /// The APP1 namespace header that marks an XMP segment (NUL-terminated).
    static let app1Header: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    private static let name = Array("tiff:Orientation".utf8)

    /// The XMP packet inside an APP1 segment body, or nil when the segment is not XMP.
    static func packet(ofAPP1 segment: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard segment.count > app1Header.count, segment.starts(with: app1Header) else { return nil }
        return UnsafeRawBufferPointer(rebasing: segment[app1Header.count...])
    }

    /// The orientation the packet states, nil when it states none.
    static func read(packet: UnsafeRawBufferPointer) -> ImageOrientation? {
        var start = 0
        while let found = find(name, in: packet, from: start) {
            var index = found + name.count
            start = index
            // Attribute: optional spaces, '=', optional spaces, a quote. Element: '>'.
            while index < packet.count, packet[index] == 0x20 { index += 1 }
            guard index < packet.count else { return nil }
            if packet[index] == UInt8(ascii: "=") {
                index += 1
                while index < packet.count, packet[index] == 0x20 { index += 1 }
                guard index < packet.count, packet[index] == UInt8(ascii: "\"") || packet[index] == UInt8(ascii: "'")
                else { continue }
                index += 1
            } else if packet[index] == UInt8(ascii: ">") {
                index += 1
            } else {
                continue
            }
            while index < packet.count, packet[index] == 0x20 || packet[index] == 0x0A || packet[index] == 0x0D
                    || packet[index] == 0x09 { index += 1 }
            guard index < packet.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(packet[index]) else { continue }
            let next = index + 1 < packet.count ? packet[index + 1] : 0
            // A single digit: "10" or "6x" are not orientations.
            guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) else { continue }
            return ImageOrientation(rawValue: Int(packet[index] - UInt8(ascii: "0")))
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0],
               (1..<needle.count).allSatisfy({ haystack[index + $0] == needle[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }
}
