import Foundation

/// Photoshop image resources as JPEG's APP13 carries them (`Photoshop 3.0\0`, then `8BIM` blocks: a 2-byte
/// id, an even-padded Pascal name, a 4-byte size, the data padded to even length). Resource 0x0404, the
/// IPTC-IIM datasets, is read and written; 0x03ED, the resolution, read for the service's `/info`.
enum PhotoshopResources {
    static let app13Header: [UInt8] = Array("Photoshop 3.0".utf8) + [0]
    private static let signature: [UInt8] = Array("8BIM".utf8)
    private static let iptcResource = 0x0404
    static let resolutionResource = 0x03ED

    /// The IPTC datasets in an APP13 segment body; nil when it holds none or its blocks do not add up.
    static func iptc(inAPP13 segment: UnsafeRawBufferPointer) -> [UInt8]? {
        resource(iptcResource, inAPP13: segment)
    }

    /// Resource `wanted`'s data in an APP13 segment body; nil when it holds none (or an empty one) or its blocks
    /// do not add up.
    static func resource(_ wanted: Int, inAPP13 segment: UnsafeRawBufferPointer) -> [UInt8]? {
        guard segment.starts(with: app13Header) else { return nil }
        let bytes = [UInt8](segment[app13Header.count...])
        var index = 0
        while bytes.count - index >= 12, bytes[index ..< index + 4].elementsEqual(signature) {
            let id = Int(bytes[index + 4]) << 8 | Int(bytes[index + 5])
            let nameLength = Int(bytes[index + 6])
            index += 6 + (nameLength + 2) & ~1
            guard bytes.count - index >= 4 else { return nil }
            let size = bytes[index ..< index + 4].reduce(0) { $0 << 8 | Int($1) }
            index += 4
            guard size <= bytes.count - index else { return nil }
            if id == wanted { return size > 0 ? Array(bytes[index ..< index + size]) : nil }
            index += (size + 1) & ~1
        }
        return nil
    }

    /// An APP13 segment body holding `iptc` as resource 0x0404 with an empty name.
    static func app13Body(iptc: [UInt8]) -> [UInt8] {
        var body = app13Header + signature + [0x04, 0x04, 0, 0]
        body.appendBigEndian(UInt32(iptc.count))
        body += iptc
        if iptc.count % 2 == 1 { body.append(0) }
        return body
    }
}
