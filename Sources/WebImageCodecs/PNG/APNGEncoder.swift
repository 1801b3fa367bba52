import WebImageCore

/// Writes an animated PNG: every frame is compressed as a standalone PNG at the requested effort, and its IDAT
/// data is re-framed here — the first frame's as IDAT (so viewers without APNG support show it), the others as
/// fdAT — with acTL and one fcTL per frame (full canvas, dispose none, blend source).
enum APNGEncoder {
    static func encode(_ frames: [PixelBuffer], durations: [Double], loopCount: Int, alpha: Bool,
                       effort: ImageEncodeEffort) throws -> [UInt8] {
        guard let size = frames.first?.size, frames.allSatisfy({ $0.size == size }) else {
            throw WebImageError.encodingFailed(format: .png, reason: "animation frames differ in size")
        }
        var writer = PNGChunkWriter(capacity: frames.count * size.pixelCount)
        var sequence: UInt32 = 0
        // libpng writes a frame in one call: the token is polled between frames.
        let cancellation = WorkCancellation.current
        for (index, frame) in frames.enumerated() {
            try cancellation?.check()
            let png = try PNGEncoder.write(frame, alpha: alpha, effort: effort)
            try png.withUnsafeBytes { bytes in
                var chunks = PNGChunkIterator(bytes)
                var wroteControl = false
                while let chunk = try chunks.next() {
                    let whole = UnsafeRawBufferPointer(rebasing: bytes[chunk.range])
                    switch chunk.type {
                    case PNGChunkType.IHDR where index == 0:
                        writer.appendRaw(whole)
                        var control: [UInt8] = []
                        control.appendBigEndian(UInt32(frames.count))
                        control.appendBigEndian(UInt32(clamping: max(0, loopCount)))
                        writer.append(PNGChunkType.acTL, control)
                    case PNGChunkType.IDAT:
                        if !wroteControl {
                            writer.append(PNGChunkType.fcTL, frameControl(sequence: sequence, size: size,
                                                                          duration: durations[index]))
                            sequence += 1
                            wroteControl = true
                        }
                        if index == 0 {
                            writer.appendRaw(whole)
                        } else {
                            var number: [UInt8] = []
                            number.appendBigEndian(sequence)
                            sequence += 1
                            number.withUnsafeBytes { writer.append(PNGChunkType.fdAT, [$0, UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])]) }
                        }
                    case PNGChunkType.IHDR, PNGChunkType.IEND:
                        break
                    default:
                        // Ancillary chunks the writer put before the image data (libpng's sRGB…), once.
                        if index == 0 && !wroteControl { writer.appendRaw(whole) }
                    }
                }
            }
        }
        writer.append(PNGChunkType.IEND, [UInt8]())
        return writer.bytes
    }

    /// An fcTL payload for a full-canvas frame shown for `duration` seconds.
    private static func frameControl(sequence: UInt32, size: PixelSize, duration: Double) -> [UInt8] {
        let (numerator, denominator) = delay(duration)
        var payload: [UInt8] = []
        payload.appendBigEndian(sequence)
        payload.appendBigEndian(UInt32(size.width))
        payload.appendBigEndian(UInt32(size.height))
        payload.appendBigEndian(UInt32(0))
        payload.appendBigEndian(UInt32(0))
        payload.appendBigEndian(numerator)
        payload.appendBigEndian(denominator)
        payload.append(APNGFrameControl.Dispose.none.rawValue)
        payload.append(APNGFrameControl.Blend.source.rawValue)
        return payload
    }

    /// `seconds` as a delay fraction: milliseconds when they fit in 16 bits, else coarser units.
    static func delay(_ seconds: Double) -> (numerator: UInt16, denominator: UInt16) {
        guard seconds.isFinite, seconds > 0 else { return (0, 1000) }
        for denominator in [1000, 100, 10, 1] {
            let numerator = (seconds * Double(denominator)).rounded()
            if numerator <= Double(UInt16.max) { return (UInt16(numerator), UInt16(denominator)) }
        }
        return (UInt16.max, 1)
    }
}
