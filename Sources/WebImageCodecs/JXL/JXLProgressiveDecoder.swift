import CJXL
import Foundation
import WebImageCore

/// Shows a still JPEG XL while it downloads: the bytes are fed to one libjxl decoder as they arrive, and each
/// time libjxl reports progress (`JXL_DEC_FRAME_PROGRESSION`: the 1:8 DC image, then each refinement pass of a
/// progressive file) the image so far is flushed (`JxlDecoderFlushImage`) and returned. Regions libjxl has not
/// reached yet stay transparent black.
///
/// The final call (`isFinished`) returns what a one-shot ``JXLCoder`` decode returns. An animation has no
/// useful partial form, so for it every call returns nil until the bytes are complete, and the final call
/// decodes the whole animation.
final class JXLProgressiveDecoder: ProgressiveImageDecoder {
    private let options: ImageDecodeOptions
    private var session: JXLSession?
    private var header: JXLHeader?
    private var profile: [UInt8]?
    private var isAnimated = false
    /// Bytes of the download libjxl has consumed; the rest is fed again with the next call.
    private var consumed = 0
    /// libjxl's output raster: written by libjxl between calls, so it is ours, and images get copies.
    private var output: UnsafeMutableRawBufferPointer?
    private var isComplete = false
    /// The first error of a feed, thrown again by every later call: libjxl 0.7's decoder, run again after it
    /// reported `JXL_DEC_ERROR`, went on and wrote through a null pointer.
    private var failure: (any Error)?

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    deinit {
        output?.deallocate()
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        if isAnimated {
            guard isFinished else { return nil }
            var store = RasterStore.fresh
            return try JXLDecoding.decode(data, store: &store, options: options)
        }
        if let failure { throw failure }
        let session = try self.session ?? start()
        var progressed = false
        if !isComplete && data.count > consumed {
            do {
                progressed = try feed(data, to: session)
            } catch {
                failure = error
                throw error
            }
        }
        if isAnimated { return try decode(data, isFinished: isFinished) }
        if isFinished {
            guard isComplete, let output, let header else { throw WebImageError.badImageData(.truncated) }
            return image(output, header: header, isIncremental: false)
        }
        guard progressed, let header, !isComplete else { return nil }
        guard JxlDecoderFlushImage(session.decoder) == JXL_DEC_SUCCESS, let output else { return nil }
        return image(output, header: header, isIncremental: true)
    }

    private func start() throws -> JXLSession {
        let session = try JXLSession(events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME,
                                              JXL_DEC_FRAME_PROGRESSION, JXL_DEC_FULL_IMAGE])
        guard JxlDecoderSetProgressiveDetail(session.decoder, kPasses) == JXL_DEC_SUCCESS else {
            throw WebImageError.badImageData(.corrupt("libjxl rejected the progressive detail setting"))
        }
        self.session = session
        return session
    }

    /// Feeds the bytes past those consumed; returns whether libjxl reported progress worth showing.
    private func feed(_ data: Data, to session: JXLSession) throws -> Bool {
        try data.withUnsafeBytes { raw in
            session.setInput(UnsafeRawBufferPointer(rebasing: raw[consumed...]))
            defer { consumed = raw.count - JxlDecoderReleaseInput(session.decoder) }
            var progressed = false
            while true {
                let status = session.process()
                switch status {
                case JXL_DEC_BASIC_INFO:
                    let header = JXLHeader(try session.basicInfo())
                    try options.checkPixelCount(width: header.size.width, height: header.size.height)
                    self.header = header
                    if header.isAnimated {
                        isAnimated = true
                        return false
                    }
                case JXL_DEC_COLOR_ENCODING:
                    profile = session.dataProfile()
                case JXL_DEC_FRAME:
                    continue
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    guard let header else { throw JXLStatus.error(status, "image") }
                    let buffer = output ?? .allocate(byteCount: header.size.pixelCount * header.pixelFormat.bytesPerPixel,
                                                     alignment: 16)
                    buffer.initializeMemory(as: UInt8.self, repeating: 0)
                    output = buffer
                    try session.setOutput(buffer, format: header.pixelFormat)
                case JXL_DEC_FRAME_PROGRESSION:
                    progressed = true
                case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                    isComplete = true
                    return true
                case JXL_DEC_NEED_MORE_INPUT:
                    return progressed
                default:
                    throw JXLStatus.error(status, "image")
                }
            }
        }
    }

    /// A copy of the output raster as it is now, colour-managed as the one-shot decode would.
    private func image(_ raster: UnsafeMutableRawBufferPointer, header: JXLHeader, isIncremental: Bool) -> Image {
        var color = ColorManagement.Outcome.none
        let pixels = PixelBuffer(width: header.size.width, height: header.size.height, format: header.pixelFormat) {
            $0.copyMemory(from: UnsafeRawBufferPointer(raster))
            color = ColorManagement.manage($0, format: header.pixelFormat, pixelCount: header.size.pixelCount,
                                           profile: profile, options: options)
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: header.orientation, format: .jxl,
                          hasAlpha: header.hasAlpha, isIncremental: isIncremental, iccProfile: color.iccProfile,
                          colorProfileIssue: color.issue)
        return options.finish(image, sourceSize: header.size)
    }
}
