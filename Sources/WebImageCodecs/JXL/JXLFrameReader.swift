import CJXL
import Foundation
import WebImageCore

/// A sequential reader of a JPEG XL's displayed frames over its own copy of complete bytes.
///
/// Creating one reads the header (checked against the options' pixel limit before anything image-sized is
/// allocated) and the colour encoding; each ``decodeNext(into:)`` then decodes one frame into the caller's
/// raster. libjxl composites (coalesces) layers and animation frames itself. Not thread-safe: callers
/// serialise access.
final class JXLFrameReader {
    let header: JXLHeader
    /// The ICC profile of the decoded pixels; nil when libjxl gives none.
    let iccProfile: [UInt8]?
    /// The index the next ``decodeNext(into:)`` decodes.
    private(set) var nextIndex = 0

    private let bytes: UnsafeMutableRawBufferPointer
    private var session: JXLSession

    init(_ data: Data, options: ImageDecodeOptions) throws {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        do {
            session = try Self.start(over: UnsafeRawBufferPointer(copy))
            try Self.expect(JXL_DEC_BASIC_INFO, from: session, context: "header")
            header = JXLHeader(try session.basicInfo())
            try options.checkPixelCount(width: header.size.width, height: header.size.height)
            try Self.expect(JXL_DEC_COLOR_ENCODING, from: session, context: "colour encoding")
            iccProfile = session.dataProfile()
        } catch {
            copy.deallocate()
            throw error
        }
    }

    deinit {
        bytes.deallocate()
    }

    /// Bytes one frame takes in `raw` for ``decodeNext(into:)``.
    var frameByteCount: Int { header.size.pixelCount * header.pixelFormat.bytesPerPixel }

    /// Decodes frame ``nextIndex`` into `raw` (``frameByteCount`` bytes of ``JXLHeader/pixelFormat``) and
    /// returns how long it is shown, in seconds; advances by one.
    /// After a failure the decoder is mid-frame, so the next ``seek(to:)`` starts over.
    @discardableResult
    func decodeNext(into raw: UnsafeMutableRawBufferPointer) throws -> Double {
        do {
            return try decodeFrame(into: raw)
        } catch {
            nextIndex = .max
            throw error
        }
    }

    private func decodeFrame(into raw: UnsafeMutableRawBufferPointer) throws -> Double {
        // libjxl decodes a frame in one process call and its image-out callback cannot stop it: the token is
        // polled between decoder events, so per frame.
        try WorkCancellation.checkCurrent()
        try Self.expect(JXL_DEC_FRAME, from: session, context: "frame \(nextIndex) header")
        var frameHeader = JxlFrameHeader()
        guard JxlDecoderGetFrameHeader(session.decoder, &frameHeader) == JXL_DEC_SUCCESS else {
            throw WebImageError.badImageData(.corrupt("libjxl could not read frame \(nextIndex)'s header"))
        }
        try Self.expect(JXL_DEC_NEED_IMAGE_OUT_BUFFER, from: session, context: "frame \(nextIndex)")
        try session.setOutput(raw, format: header.pixelFormat)
        try WorkCancellation.checkCurrent()
        try Self.expect(JXL_DEC_FULL_IMAGE, from: session, context: "frame \(nextIndex)")
        nextIndex += 1
        return Double(frameHeader.duration) * header.secondsPerTick
    }

    /// Positions the reader so that the next ``decodeNext(into:)`` decodes frame `index`: going back starts a
    /// new decoder (libjxl 0.7's `JxlDecoderRewind` then reports no events), and libjxl skips the frames in
    /// between, decoding only what later frames reference.
    func seek(to index: Int) throws {
        guard index != nextIndex else { return }
        if index < nextIndex {
            session = try Self.start(over: UnsafeRawBufferPointer(bytes))
            try Self.expect(JXL_DEC_BASIC_INFO, from: session, context: "header")
            try Self.expect(JXL_DEC_COLOR_ENCODING, from: session, context: "colour encoding")
            nextIndex = 0
        }
        JxlDecoderSkipFrames(session.decoder, index - nextIndex)
        nextIndex = index
    }

    private static func start(over bytes: UnsafeRawBufferPointer) throws -> JXLSession {
        let session = try JXLSession(events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME,
                                              JXL_DEC_FULL_IMAGE])
        session.setInput(bytes)
        return session
    }

    /// Processes until `event`; any other outcome is an error (libjxl reports only subscribed events).
    private static func expect(_ event: JxlDecoderStatus, from session: JXLSession, context: String) throws {
        let status = session.process()
        if status == JXL_DEC_SUCCESS, event == JXL_DEC_FRAME {
            throw WebImageError.badImageData(.corrupt("the file has fewer frames than its \(context) needs"))
        }
        guard status == event else { throw JXLStatus.error(status, context) }
    }
}
