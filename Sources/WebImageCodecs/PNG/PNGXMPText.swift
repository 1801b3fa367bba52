/// The XMP packet of a PNG iTXt chunk: keyword `XML:com.adobe.xmp`, NUL, compression flag and method, a
/// language tag and a translated keyword (each NUL-terminated), then the UTF-8 text, zlib-compressed when the
/// flag says so.
enum PNGXMPText {
    private static let keyword = Array("XML:com.adobe.xmp".utf8) + [0]

    /// The packet's bytes, nil when the chunk is another iTXt or cannot be read.
    static func packet(in data: UnsafeRawBufferPointer) -> [UInt8]? {
        guard data.count > keyword.count + 2, data.starts(with: keyword) else { return nil }
        let compressed = data[keyword.count] == 1
        var index = keyword.count + 2
        for _ in 0..<2 {
            guard let nul = data[index...].firstIndex(of: 0) else { return nil }
            index = nul + 1
        }
        let text = UnsafeRawBufferPointer(rebasing: data[index...])
        return compressed ? ZlibInflate.inflate(text, limit: PNGColorReader.maxProfileSize) : Array(text)
    }
}
