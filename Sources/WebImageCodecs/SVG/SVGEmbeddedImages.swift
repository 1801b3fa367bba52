import Foundation
import WebImageCore

/// The images an SVG embeds as `data:` URLs, sized before librsvg draws: librsvg hands them to gdk-pixbuf, which
/// decodes each whole with no limit of ours and no deadline (a 1 MB SVG holding a 20000×20000 PNG drawn at 10×10
/// took 31 s and 2.8 GB). Their headers are read with the built-in coders, and their pixels together must be within
/// the decode's pixel limit; an embedded image no coder can size is refused too, since gdk-pixbuf might still
/// decode it. An embedded SVG is checked the same way, one level deep.
enum SVGEmbeddedImages {
    /// The most `data:` URLs looked at; more is refused (no real drawing embeds this many images).
    static let maxCount = 1_000
    /// Embedded SVGs may hold images; those may not hold SVGs again.
    static let maxDepth = 1

    static func check(_ data: Data, pixelLimit: Int) throws {
        var budget = pixelLimit, count = 0
        try check(data, budget: &budget, count: &count, depth: 0)
    }

    private static func check(_ data: Data, budget: inout Int, count: inout Int, depth: Int) throws {
        for payload in payloads(in: data) {
            try WorkCancellation.checkCurrent()
            count += 1
            guard count <= maxCount else {
                throw WebImageError.badImageData(.corrupt("the SVG embeds more than \(maxCount) data: URLs"))
            }
            let format = ImageFormat(sniffing: payload)
            if format == .svg {
                guard depth < maxDepth else {
                    throw WebImageError.badImageData(.corrupt("the SVG embeds SVGs more than \(maxDepth) level deep"))
                }
                try check(payload, budget: &budget, count: &count, depth: depth + 1)
                continue
            }
            guard let reader = coders.first(where: { $0.canDecode(payload) }) as? any ImageHeaderReading,
                  let header = try? reader.header(payload) else {
                throw WebImageError.badImageData(.corrupt("the SVG embeds a data: image that cannot be read (\(format.rawValue))"))
            }
            let size = header.pixelSize
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            guard !overflow, pixels <= budget else {
                throw WebImageError.badImageData(.tooManyPixels(width: size.width, height: size.height, limit: budget))
            }
            budget -= pixels
        }
    }

    /// The raster coders an embedded image can be sized with (not SVG and PDF: gdk-pixbuf draws neither here).
    private static let coders: [any ImageCoding] = BuiltInCoders.makeAll().filter { !($0 is SVGCoder) && !($0 is PDFCoder) }

    /// The decoded bytes of every `data:` URL in the document's text (attributes and style sheets alike), base64
    /// or percent-encoded.
    static func payloads(in data: Data) -> [Data] {
        let bytes = [UInt8](data)
        let marker = Array("data:".utf8)
        var result: [Data] = []
        var index = 0
        while let start = find(marker, in: bytes, from: index) {
            var end = start + marker.count
            // The URL ends at a quote, a bracket, a `<` or the end; whitespace inside base64 is allowed.
            while end < bytes.count, !"\"')<>".utf8.contains(bytes[end]) { end += 1 }
            index = end
            let text = String(decoding: bytes[(start + marker.count)..<end], as: UTF8.self)
            guard let comma = text.firstIndex(of: ",") else { continue }
            let parameters = text[..<comma].lowercased(), body = text[text.index(after: comma)...]
            if parameters.hasSuffix(";base64") {
                if let decoded = Data(base64Encoded: String(body), options: .ignoreUnknownCharacters) { result.append(decoded) }
            } else if let decoded = String(body).removingPercentEncoding {
                result.append(Data(decoded.utf8))
            }
        }
        return result
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= marker.count, start <= bytes.count - marker.count else { return nil }
        var index = start
        while index <= bytes.count - marker.count {
            if bytes[index] | 0x20 == marker[0], zip(bytes[index..<(index + marker.count)], marker).allSatisfy({ $0 | 0x20 == $1 }) {
                return index
            }
            index += 1
        }
        return nil
    }
}
