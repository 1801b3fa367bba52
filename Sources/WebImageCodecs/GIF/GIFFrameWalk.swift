import WebImageCore

/// A GIF's frame headers, read without decoding any pixels and checked against the options' limits.
///
/// A GIF announces neither its frame count nor its frames' sizes up front, so both decoders walk the records
/// first (skipping the compressed pixels costs a pass over the bytes, no LZW decoding) and refuse an
/// animation over the limits before painting anything.
enum GIFFrameWalk {
    /// Every image header (only the first with `firstFrameOnly`), once the screen, each frame's size, the
    /// frame count and the pixels to composite have passed the options' limits.
    ///
    /// Like decoding, a walk keeps the frames before damage in the records; the walk stops with
    /// `tooManyFrames` as soon as one frame too many is seen, so a file of millions of tiny frames costs
    /// ``ImageDecodeOptions/maxFrameCount`` + 1 records.
    static func headers(_ reader: GIFReader, options: ImageDecodeOptions) throws -> [GIFFrameHeader] {
        let screen = reader.screen
        try options.checkPixelCount(width: screen.width, height: screen.height)
        var headers: [GIFFrameHeader] = []
        try reader.forEachFrame { header in
            try GIFDecoding.checkFrameSize(header, options: options)
            try options.checkFrameCount(headers.count + 1)
            try reader.skipPixels()
            headers.append(header)
            return !options.firstFrameOnly
        }
        try options.checkAnimation(frameCount: headers.count, pixelCount: compositedPixels(headers, screen: screen))
        return headers
    }

    /// The pixels decoding these frames paints: the screen for each frame, or the frame itself when it is
    /// larger (its rows are all decoded, even those off the screen).
    static func compositedPixels(_ headers: [GIFFrameHeader], screen: PixelSize) -> Int {
        var total = 0
        for header in headers {
            let (sum, overflow) = total.addingReportingOverflow(max(screen.pixelCount, header.width * header.height))
            if overflow { return .max }
            total = sum
        }
        return total
    }
}
