import CTurboJPEG
import Foundation
import Testing
import WebImage

/// Coders, inputs and outcomes for the cancellation tests.
enum CancellationTestSupport {
    /// The built-in coder for `format`.
    static func coder(for format: ImageFormat) -> any ImageCoding {
        switch format {
        case .jpeg: JPEGCoder()
        case .png: PNGCoder()
        case .gif: GIFCoder()
        case .webp: WebPCoder()
        case .avif: AVIFCoder()
        case .heic: HEIFCoder()
        default: JXLCoder()
        }
    }

    /// A progressive JPEG (libjpeg-turbo's default scan script, 10 scans) of the smooth test picture.
    static func progressiveJPEG(width: Int, height: Int) throws -> Data {
        let pixels = JPEGTestSupport.smoothImage(width: width, height: height)
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(output) }
        let status = pixels.withUnsafeBytes { raw in
            tjCompress2(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), 0, Int32(height),
                        Int32(TJPF_RGBA.rawValue), &output, &length, Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE)
        }
        #expect(status == 0)
        return Data(bytes: try #require(output), count: Int(length))
    }

    /// `body` run with `token` as the thread's current one (without the scope's own check at the end, so that
    /// what is seen is the coder's own doing).
    static func under<Value>(_ token: WorkCancellation, _ body: () throws -> Value) rethrows -> Value {
        try WorkCancellation.$current.withValue(token) { try body() }
    }

    /// Whether `body` threw ``WebImageError/cancelled`` (any other outcome is recorded as an issue).
    static func isCancelled(_ body: () throws -> Any) -> Bool {
        do {
            let made = try body()
            Issue.record("expected the work to stop, it made \(made)")
        } catch WebImageError.cancelled {
            return true
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return false
    }

    /// Decodes `data` whole under a token that is never cancelled, then under one that cancels itself halfway
    /// through those checks: the second stops with the cancelled error, having checked (worked) less.
    static func stopsHalfway(_ data: Data, with coder: any ImageCoding,
                             options: ImageDecodeOptions = ImageDecodeOptions()) throws -> (whole: Int, stopped: Int) {
        let whole = WorkCancellation()
        _ = try under(whole) { try coder.decode(data, options: options) }
        let stopped = WorkCancellation(checkLimit: whole.checkCount / 2)
        #expect(isCancelled { try under(stopped) { try coder.decode(data, options: options) } })
        return (whole.checkCount, stopped.checkCount)
    }
}
