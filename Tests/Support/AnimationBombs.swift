import Foundation

/// Small animated files with a large canvas and many frames, each frame one opaque black pixel: the shape of
/// an animated decompression bomb (a GIF of under 1 KB can ask for 40 canvases of 16 MP). The frames step
/// along the top row, so consecutive frames differ.
public enum AnimationBombs {
    /// A GIF89a looping forever, each frame shown 0.1 s.
    public static func gif(width: Int, height: Int, frames: Int) -> Data {
        let le = LargeImages.littleEndian16
        var bytes = Array("GIF89a".utf8) + le(width) + le(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        let control: [UInt8] = [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x2C]
        let pixel = [0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00] + GIFConstantLZW.imageData(pixelCount: 1)
        bytes.reserveCapacity(bytes.count + frames * (control.count + 2 + pixel.count) + 1)
        for index in 0..<frames {
            let x = index % width
            bytes += control
            bytes.append(UInt8(x & 0xFF))
            bytes.append(UInt8(x >> 8))
            bytes += pixel
        }
        return Data(bytes + [0x3B])
    }

    /// An APNG (RGBA) looping forever, each frame shown 0.1 s. Its default image (the IDAT, which APNG
    /// decoders do not show) is a single zero byte of image data, so the file stays small.
    public static func apng(width: Int, height: Int, frames: Int) -> Data {
        let be = ZlibZeros.bigEndian
        var chunks: [(type: String, data: [UInt8])] = [
            ("IHDR", be(UInt32(width)) + be(UInt32(height)) + [8, 6, 0, 0, 0]),
            ("acTL", be(UInt32(frames)) + be(0)),
            ("IDAT", ZlibZeros.stream(count: 1)),
        ]
        let pixel = ZlibZeros.stored([0, 0, 0, 0, 255])  // filter byte, then opaque black
        var sequence: UInt32 = 0
        for index in 0..<frames {
            let control = be(sequence) + be(1) + be(1) + be(UInt32(index % width)) + be(0) + [0, 1, 0, 10, 0, 0]
            chunks.append(("fcTL", control))
            chunks.append(("fdAT", be(sequence + 1) + pixel))
            sequence += 2
        }
        chunks.append(("IEND", []))
        return PNGChunks.file(chunks)
    }

    /// An animated WebP looping forever, each frame a lossless 1×1 image shown 0.1 s.
    public static func webp(width: Int, height: Int, frames: Int) -> Data {
        func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(payload.count)
            return Array(type.utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
                + payload + (payload.count.isMultiple(of: 2) ? [] : [0])
        }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        let frame = chunk("VP8L", losslessBlackPixel)
        for index in 0..<frames {
            // Offsets are stored halved (frames land on even columns); no blending, no disposal.
            body += chunk("ANMF", le24(index % max(1, width / 2)) + le24(0) + le24(0) + le24(0) + le24(100) + [0x02] + frame)
        }
        let size = UInt32(body.count)
        return Data(Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF),
                                          UInt8(size >> 24)] + body)
    }

    /// A lossless 1×1 opaque black image's VP8L bitstream, as libwebp writes it.
    private static let losslessBlackPixel: [UInt8] = [0x2F, 0x00, 0x00, 0x00, 0x00, 0x07, 0x10, 0x11, 0xFD, 0x0F, 0x44, 0x44,
                                                       0xFF, 0x03]
}
