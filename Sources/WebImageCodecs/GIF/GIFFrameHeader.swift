import WebImageCore

/// How a frame leaves the canvas for the next one (the GCE's disposal method).
enum GIFDisposal: Sendable, Hashable {
    /// 0 (unspecified) and 1: the frame stays.
    case none
    /// 2: the frame's rectangle is cleared to transparent (as browsers, ImageIO and SDWebImage do, rather than
    /// painting the background colour).
    case background
    /// 3: the canvas goes back to how it was before the frame was drawn.
    case previous

    init(code: Int) {
        switch code {
        case 2: self = .background
        case 3: self = .previous
        default: self = .none
        }
    }
}

/// One image record of a GIF: where it goes on the logical screen, its colours, and its graphics control block.
struct GIFFrameHeader: Sendable {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    /// Rows are stored in the four-pass interlaced order.
    var isInterlaced: Bool
    /// The local colour table, else the global one.
    var palette: GIFPalette
    /// The palette index that leaves the canvas untouched, if the GCE names one.
    var transparentIndex: UInt8?
    var disposal: GIFDisposal
    /// The GCE's delay in hundredths of a second (0 without a GCE).
    var delayCentiseconds: Int
    /// Offset in the file of the record's `,` separator, where the animated decoder resumes reading.
    var recordOffset: Int

    /// Seconds on screen, with SDWebImage's rule: under 11 ms (0 or 1 centisecond) means 100 ms, as browsers do.
    var duration: Double {
        let seconds = Double(delayCentiseconds) / 100
        return seconds < 0.011 ? 0.1 : seconds
    }

    /// Whether the canvas after this frame does not depend on the frames before it, so replay for random
    /// access can start here on an empty canvas: the frame is not undone later, and either it covers the
    /// whole screen opaquely or the previous frame cleared the whole screen.
    func isKeyFrame(after previous: GIFFrameHeader?, screen: PixelSize) -> Bool {
        guard disposal != .previous else { return false }
        guard let previous else { return true }
        if covers(screen) && transparentIndex == nil { return true }
        return previous.disposal == .background && previous.covers(screen)
    }

    private func covers(_ screen: PixelSize) -> Bool {
        left <= 0 && top <= 0 && left + width >= screen.width && top + height >= screen.height
    }
}
