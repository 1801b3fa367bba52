import Foundation
import Testing
import WebImage

/// Builds PNG and APNG streams for the tests, independently of the coder's own chunk code: frames are
/// compressed by `PNGCoder` as stills and their IDAT data is re-framed here.
enum PNGTestBytes {
    /// One APNG frame to write.
    struct Frame {
        var pixels: PixelBuffer
        var x = 0, y = 0
        var delay: (numerator: UInt16, denominator: UInt16)
        var dispose: UInt8 = 0
        var blend: UInt8 = 0
    }

    /// A chunk: type and data.
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a PNG stream.
    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var chunks: [Chunk] = [], offset = 8
        while offset + 12 <= png.count {
            let length = Int(bigEndian(png, offset))
            let type = String(decoding: png[offset + 4 ..< offset + 8], as: UTF8.self)
            chunks.append(Chunk(type: type, data: Array(png[offset + 8 ..< offset + 8 + length])))
            offset += 12 + length
        }
        return chunks
    }

    /// A PNG stream made of `chunks`, CRCs computed.
    static func stream(_ chunks: [Chunk]) -> [UInt8] {
        var out = signature
        for chunk in chunks {
            out += be32(UInt32(chunk.data.count))
            let body = Array(chunk.type.utf8) + chunk.data
            out += body + be32(crc(body))
        }
        return out
    }

    /// A still RGBA PNG of `pixels`, written by PNGCoder (which must pick colour type 6 for it).
    static func rgbaChunks(_ pixels: PixelBuffer) throws -> [Chunk] {
        let png = try PNGCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .png, options: .init())
        let chunks = chunks([UInt8](png))
        try #require(chunks.first?.type == "IHDR" && chunks[0].data[9] == 6, "test frames must be encoded as RGBA")
        return chunks
    }

    /// An APNG of `frames` on a `canvas`, playing `plays` times. With `defaultImage` it is written as IDAT
    /// before the first fcTL (not part of the animation); otherwise the first frame's data is the IDAT.
    /// `sequenceSkip` adds one to every sequence number from that index on (a damaged file).
    static func apng(canvas: PixelSize, frames: [Frame], plays: UInt32, defaultImage: PixelBuffer? = nil,
                     sequenceSkip: Int? = nil) throws -> Data {
        var ihdr = try rgbaChunks(frames[0].pixels)[0]
        ihdr.data.replaceSubrange(0..<8, with: be32(UInt32(canvas.width)) + be32(UInt32(canvas.height)))
        var out = [ihdr, Chunk(type: "acTL", data: be32(UInt32(frames.count)) + be32(plays))]
        if let defaultImage {
            out += try rgbaChunks(defaultImage).filter { $0.type == "IDAT" }
        }
        var sequence: UInt32 = 0
        func next() -> [UInt8] {
            defer { sequence += 1 }
            return be32(sequence + (sequenceSkip.map { Int(sequence) >= $0 ? 1 : 0 } ?? 0))
        }
        for (index, frame) in frames.enumerated() {
            let control = next() + be32(UInt32(frame.pixels.width)) + be32(UInt32(frame.pixels.height))
                + be32(UInt32(frame.x)) + be32(UInt32(frame.y)) + be16(frame.delay.numerator)
                + be16(frame.delay.denominator) + [frame.dispose, frame.blend]
            out.append(Chunk(type: "fcTL", data: control))
            for idat in try rgbaChunks(frame.pixels) where idat.type == "IDAT" {
                out.append(index == 0 && defaultImage == nil ? idat : Chunk(type: "fdAT", data: next() + idat.data))
            }
        }
        out.append(Chunk(type: "IEND", data: []))
        return Data(stream(out))
    }

    /// A solid raster.
    static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: Array((0..<width * height).map { _ in rgba }.joined()))
    }

    /// FNV-1a 64 of the bytes (the fixtures' expected checksums were computed the same way over Pillow's output).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// The `BadImageDataReason` a decode failed with, or nil if it did not fail that way.
    static func badDataReason(_ body: () throws -> Void) -> BadImageDataReason? {
        do {
            try body()
        } catch let WebImageError.badImageData(reason) {
            return reason
        } catch {
            return nil
        }
        return nil
    }
}
