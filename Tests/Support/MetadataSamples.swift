import Foundation

/// EXIF, XMP and IPTC as cameras and editors write them, built here so no tool is needed at test time: the
/// copyright fields imgproxy's `keep_copyright` keeps, and the camera, location and editing fields it drops.
public enum MetadataSamples {
    public static let artist = "Jane Doe"
    public static let copyright = "(c) 2024 Jane Doe"

    /// One TIFF entry: tag, type (2 ASCII, 3 SHORT, 4 LONG), count and value bytes (in the structure's order).
    public struct Entry {
        public var tag: UInt16, type: UInt16, count: Int, value: [UInt8]
    }

    /// An ASCII entry (NUL-terminated, as TIFF counts it).
    public static func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
    }

    /// A TIFF structure: IFD0 at offset 8 with `entries` (sorted by tag), no next IFD, the values longer than
    /// four bytes after it, each on an even offset; `gps` adds a GPS IFD (tag 0x8825) after those values.
    public static func tiff(_ entries: [Entry], bigEndian: Bool = true, gps: [Entry] = []) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] {
            let b = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }
        func ifd(_ entries: [Entry], at start: Int) -> (table: [UInt8], data: [UInt8]) {
            var table = u16(entries.count), data: [UInt8] = []
            var offset = start + 2 + entries.count * 12 + 4
            for entry in entries {
                table += u16(Int(entry.tag)) + u16(Int(entry.type)) + u32(entry.count)
                if entry.value.count <= 4 {
                    table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    table += u32(offset)
                    let padded = entry.value + (entry.value.count % 2 == 1 ? [0] : [])
                    data += padded
                    offset += padded.count
                }
            }
            return (table + u32(0), data)
        }
        var all = entries
        var gpsOffset = 0
        if !gps.isEmpty {
            // The pointer's value is known once IFD0's size is: lay IFD0 out once to find it.
            all.append(Entry(tag: 0x8825, type: 4, count: 1, value: u32(0)))
            let first = ifd(all, at: 8)
            gpsOffset = 8 + first.table.count + first.data.count
            all[all.count - 1].value = u32(gpsOffset)
        }
        let zero = ifd(all, at: 8)
        var bytes = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + zero.table + zero.data
        if !gps.isEmpty {
            let gpsIFD = ifd(gps, at: gpsOffset)
            bytes += gpsIFD.table + gpsIFD.data
        }
        return bytes
    }

    /// A SHORT entry.
    public static func short(_ tag: UInt16, _ value: Int, bigEndian: Bool = true) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)]
                                                             : [UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    /// A camera's EXIF: Make, Model, Orientation, Artist, Copyright, Software, and a GPS IFD.
    public static func exif(orientation: Int = 1, bigEndian: Bool = true) -> Data {
        Data(tiff([ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS R5"), short(0x0112, orientation, bigEndian: bigEndian),
                   ascii(0x0131, "Lightroom"), ascii(0x013B, artist), ascii(0x8298, copyright)],
                  bigEndian: bigEndian, gps: [ascii(0x0001, "N"), ascii(0x0003, "E")]))
    }

    /// What keeping the copyright leaves of ``exif(orientation:bigEndian:)``: IFD0 with Artist and Copyright.
    public static func copyrightEXIF(bigEndian: Bool = true) -> Data {
        Data(tiff([ascii(0x013B, artist), ascii(0x8298, copyright)], bigEndian: bigEndian))
    }

    /// An XMP packet as Lightroom writes one: `dc` (title, rights, creator, subject), `xmp`, `photoshop`,
    /// `exif`, `tiff` (an orientation), `xmpRights` and `cc` properties, as attributes and elements.
    public static let xmp = Data("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
        xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
        xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" \
        xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/" xmlns:cc="http://creativecommons.org/ns#" \
        xmp:CreatorTool="Lightroom" photoshop:City="Lisbon" tiff:Orientation="6" xmpRights:Marked="True">
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour</rdf:li></rdf:Alt></dc:title>
           <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">\(copyright)</rdf:li></rdf:Alt></dc:rights>
           <dc:creator><rdf:Seq><rdf:li>\(artist)</rdf:li></rdf:Seq></dc:creator>
           <dc:subject><rdf:Bag><rdf:li>boats</rdf:li></rdf:Bag></dc:subject>
           <exif:GPSLatitude>38,42.5N</exif:GPSLatitude>
           <cc:license rdf:resource="https://creativecommons.org/licenses/by/4.0/"/>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    /// One IPTC-IIM dataset.
    public static func dataset(_ record: UInt8, _ number: UInt8, _ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [0x1C, record, number, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    /// IPTC as Photoshop writes it: 1:90 character set, 2:0 record version, 2:5 object name, 2:25 keyword,
    /// 2:80 by-line, 2:90 city, 2:110 credit, 2:116 copyright notice.
    public static let iptc = Data(dataset(1, 90, "\u{1B}%G") + [0x1C, 2, 0, 0, 2, 0, 4] + dataset(2, 5, "Harbour")
        + dataset(2, 25, "boats") + dataset(2, 80, artist) + dataset(2, 90, "Lisbon") + dataset(2, 110, "Agency")
        + dataset(2, 116, copyright))

    /// What keeping the copyright leaves of ``iptc``: 1:90, 2:80, 2:110 and 2:116, in order.
    public static let copyrightIPTC = Data(dataset(1, 90, "\u{1B}%G") + dataset(2, 80, artist) + dataset(2, 110, "Agency")
        + dataset(2, 116, copyright))
}
