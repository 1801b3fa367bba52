import WebImageCore

/// The layout of an animated PNG: its frames' controls and where each frame's compressed data lies, plus
/// the chunks every frame shares (PLTE, tRNS, …). Parsed once; frames are decoded from it on demand.
struct APNGStructure: Sendable {
    /// One animation frame: its control and the ranges of its zlib data (IDAT data, or fdAT data after the
    /// sequence number).
    struct Frame: Sendable {
        var control: APNGFrameControl
        var dataRanges: [Range<Int>]
    }

    var header: PNGHeader
    /// num_plays: 0 = forever.
    var loopCount: Int
    var frames: [Frame]
    /// Whole-chunk ranges of the chunks between IHDR and the first IDAT, other than acTL and fcTL.
    var sharedChunks: [Range<Int>]
    /// A tRNS chunk is among the shared chunks.
    var hasTransparencyChunk = false

    /// Parses the animation in `bytes`; nil when there is no acTL before the first IDAT or no frame at all
    /// (then the file is an ordinary PNG). Rejects bad sequence numbers, bad CRCs on the animation chunks and
    /// frames outside the canvas as `.corrupt`, and a stream cut off before its frames as `.truncated`.
    static func parse(_ bytes: UnsafeRawBufferPointer, header: PNGHeader) throws -> APNGStructure? {
        var chunks = PNGChunkIterator(bytes)
        var structure = APNGStructure(header: header, loopCount: 0, frames: [], sharedChunks: [])
        var hasAnimationControl = false, seenIDAT = false, nextSequence: UInt32 = 0
        var current: Frame?
        var currentIsDefaultImage = false

        func finishFrame() {
            if let frame = current { structure.frames.append(frame) }
            current = nil
        }
        func checkSequence(_ chunk: PNGChunk) throws {
            guard chunk.length >= 4, chunk.hasValidCRC(in: bytes) else {
                throw WebImageError.badImageData(.corrupt("APNG chunk is too short or fails its CRC"))
            }
            let sequence = bytes.bigEndianUInt32(at: chunk.dataRange.lowerBound)
            guard sequence == nextSequence else {
                throw WebImageError.badImageData(.corrupt("APNG sequence number \(sequence) where \(nextSequence) was expected"))
            }
            nextSequence &+= 1
        }

        while let chunk = try chunks.next() {
            switch chunk.type {
            case PNGChunkType.IHDR:
                // Frames get a rebuilt IHDR, so libpng never sees this one's CRC.
                guard chunk.offset == PNGSignature.bytes.count, chunk.hasValidCRC(in: bytes) else {
                    throw WebImageError.badImageData(.corrupt("IHDR chunk is repeated or fails its CRC"))
                }
            case PNGChunkType.acTL where !seenIDAT:
                guard chunk.length == 8, chunk.hasValidCRC(in: bytes) else {
                    throw WebImageError.badImageData(.corrupt("acTL chunk is malformed or fails its CRC"))
                }
                hasAnimationControl = true
                structure.loopCount = Int(bytes.bigEndianUInt32(at: chunk.dataRange.lowerBound + 4))
            case PNGChunkType.fcTL:
                guard hasAnimationControl else { continue }
                guard chunk.length == APNGFrameControl.payloadLength else {
                    throw WebImageError.badImageData(.corrupt("fcTL chunk has \(chunk.length) bytes"))
                }
                try checkSequence(chunk)
                finishFrame()
                var control = try APNGFrameControl(payload: UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange]),
                                                   canvas: header.size)
                if structure.frames.isEmpty && control.dispose == .previous { control.dispose = .background }
                current = Frame(control: control, dataRanges: [])
                currentIsDefaultImage = !seenIDAT
                if currentIsDefaultImage && !control.covers(header.size) {
                    throw WebImageError.badImageData(.corrupt("the APNG default image's frame does not cover the canvas"))
                }
            case PNGChunkType.IDAT:
                guard hasAnimationControl else { return nil }
                seenIDAT = true
                guard currentIsDefaultImage else { continue }
                // Re-framed for libpng with a new CRC, so the stored one is checked here.
                guard chunk.hasValidCRC(in: bytes) else { throw WebImageError.badImageData(.corrupt("IDAT chunk fails its CRC")) }
                current?.dataRanges.append(chunk.dataRange)
            case PNGChunkType.fdAT:
                guard hasAnimationControl else { continue }
                try checkSequence(chunk)
                guard current != nil, !currentIsDefaultImage else {
                    throw WebImageError.badImageData(.corrupt("fdAT chunk without a frame control before it"))
                }
                current?.dataRanges.append(chunk.dataRange.lowerBound + 4 ..< chunk.dataRange.upperBound)
            case PNGChunkType.IEND:
                finishFrame()
                return try structure.validated(hasAnimationControl: hasAnimationControl)
            default:
                guard !seenIDAT else { continue }
                structure.sharedChunks.append(chunk.range)
                if chunk.type == PNGChunkType.tRNS { structure.hasTransparencyChunk = true }
            }
        }
        // The bytes ended without IEND.
        guard hasAnimationControl else { return nil }
        throw WebImageError.badImageData(.truncated)
    }

    private func validated(hasAnimationControl: Bool) throws -> APNGStructure? {
        guard hasAnimationControl, !frames.isEmpty else { return nil }
        if frames.contains(where: { $0.dataRanges.isEmpty }) { throw WebImageError.badImageData(.truncated) }
        return self
    }

    /// Whether the composited frames may contain transparency.
    ///
    /// True for sources with alpha (an alpha channel or tRNS), and whenever the canvas is not fully painted by
    /// the first frame or gets cleared by a disposal; conservative, to avoid scanning every pixel.
    var hasAlpha: Bool {
        if header.colorType & 4 != 0 || hasTransparencyChunk { return true }
        guard let first = frames.first else { return false }
        return !first.control.covers(header.size) || frames.contains { $0.control.dispose == .background }
    }

    /// The pixel format frames decode to: 16-bit sources keep their precision.
    var pixelFormat: PixelFormat { header.bitDepth == 16 ? .rgba16 : .rgba8 }
}
