import CJXL
import Foundation
import WebImageCore

/// Encodes stills and animations with libjxl's encoder.
///
/// Lossless (`lossless`) is modular mode on the original samples and pixel-exact; lossy maps `quality` 0…1 onto a
/// Butteraugli distance with cjxl's formula (quality × 100 = q: distance 0.1 + (100 − q) × 0.09 from q 30 up, 6.4 +
/// 2.5^((30 − q) / 5) / 6.25 below, at most 25), so quality 1 is distance 0.1, visually lossless.
/// ``ImageEncodeOptions/effort`` picks libjxl's effort: ``ImageEncodeEffort/fastest`` effort 1 (lossless:
/// "lightning"; lossy runs libjxl's fastest VarDCT path), ``ImageEncodeEffort/balanced`` (the default) effort 7,
/// libjxl's own default; ``ImageEncodeTuning/jxlEffort`` replaces both. 8-bit rasters are written as 8-bit samples,
/// 16-bit ones as 16-bit; alpha is written only when some pixel is not opaque; the orientation goes into the
/// header; an animation gets millisecond ticks and the loop count.
enum JXLEncoder {
    static func encode(_ frames: [ImageFrame], orientation: ImageOrientation, loopCount: Int,
                       iccProfile: [UInt8]?, metadata: ImageMetadata? = nil, options: ImageEncodeOptions) throws -> Data {
        let size = frames[0].pixels.size
        let format = frames[0].pixels.format
        guard frames.allSatisfy({ $0.pixels.size == size && $0.pixels.format == format }) else {
            throw failure("animation frames differ in size or sample depth")
        }
        guard let encoder = JxlEncoderCreate(nil) else { throw failure("libjxl could not create an encoder") }
        defer { JxlEncoderDestroy(encoder) }
        let runner = JxlThreadParallelRunnerCreate(nil, JxlThreadParallelRunnerDefaultNumWorkerThreads())
        defer { if let runner { JxlThreadParallelRunnerDestroy(runner) } }
        if let runner, JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner) != JXL_ENC_SUCCESS {
            throw failure("libjxl rejected its thread pool")
        }
        let hasAlpha = frames.contains { $0.pixels.containsTransparency }
        var info = basicInfo(size: size, format: format, hasAlpha: hasAlpha, orientation: orientation,
                             animated: frames.count > 1, loopCount: loopCount, lossless: options.lossless)
        try check(JxlEncoderSetBasicInfo(encoder, &info), encoder, "basic info")
        if let metadata { try JXLMetadata.addBoxes(metadata, orientation: orientation, to: encoder) }
        if let iccProfile {
            try check(JxlEncoderSetICCProfile(encoder, iccProfile, iccProfile.count), encoder, "ICC profile")
        } else {
            var color = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&color, 0)
            try check(JxlEncoderSetColorEncoding(encoder, &color), encoder, "colour encoding")
        }
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw failure("libjxl could not create frame settings")
        }
        try configure(settings, encoder: encoder, options: options)
        var pixelFormat = JXLPixelLayout.jxlFormat(for: format, channels: hasAlpha ? 4 : 3)
        // libjxl encodes a frame with no progress hook: the token is polled between frames.
        let cancellation = WorkCancellation.current
        for frame in frames {
            try cancellation?.check()
            if frames.count > 1 {
                var frameHeader = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&frameHeader)
                frameHeader.duration = UInt32(clamping: Int((max(0, frame.duration) * 1000).rounded()))
                try check(JxlEncoderSetFrameHeader(settings, &frameHeader), encoder, "frame header")
            }
            let samples = hasAlpha ? frame.pixels.bytes : withoutAlpha(frame.pixels)
            try check(JxlEncoderAddImageFrame(settings, &pixelFormat, samples, samples.count), encoder, "frame")
        }
        JxlEncoderCloseInput(encoder)
        try cancellation?.check()
        return try output(of: encoder)
    }

    private static func basicInfo(size: PixelSize, format: PixelFormat, hasAlpha: Bool,
                                  orientation: ImageOrientation, animated: Bool, loopCount: Int,
                                  lossless: Bool) -> JxlBasicInfo {
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(size.width)
        info.ysize = UInt32(size.height)
        info.bits_per_sample = format == .rgba16 ? 16 : 8
        info.num_color_channels = 3
        if hasAlpha {
            info.alpha_bits = info.bits_per_sample
            info.num_extra_channels = 1
        }
        info.orientation = JxlOrientation(rawValue: UInt32(orientation.rawValue))
        // Lossless must keep the original samples; lossy goes through XYB.
        info.uses_original_profile = lossless ? 1 : 0
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: max(0, loopCount))
        }
        return info
    }

    private static func configure(_ settings: OpaquePointer, encoder: OpaquePointer,
                                  options: ImageEncodeOptions) throws {
        let effort = Int64(options.tuning.jxlEffort ?? (options.resolvedEffort == .fastest ? 1 : 7))
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort), encoder, "effort")
        if options.lossless {
            try check(JxlEncoderSetFrameLossless(settings, 1), encoder, "lossless mode")
        } else {
            try check(JxlEncoderSetFrameDistance(settings, distance(quality: options.quality)), encoder, "distance")
        }
    }

    /// cjxl's quality-to-distance mapping, with quality 1 giving distance 0.1 (lossless is its own flag).
    static func distance(quality: Double) -> Float {
        let q = quality * 100
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(min(25, distance))
    }

    /// The raster's RGB samples without the alpha channel.
    private static func withoutAlpha(_ pixels: PixelBuffer) -> [UInt8] {
        let sampleBytes = pixels.format.bytesPerPixel / 4
        let pixelCount = pixels.width * pixels.height
        return [UInt8](unsafeUninitializedCapacity: pixelCount * 3 * sampleBytes) { out, initialized in
            pixels.withUnsafeBytes { source in
                let rgb = 3 * sampleBytes, rgba = 4 * sampleBytes
                for index in 0..<pixelCount {
                    for byte in 0..<rgb { out[index * rgb + byte] = source[index * rgba + byte] }
                }
            }
            initialized = pixelCount * 3 * sampleBytes
        }
    }

    /// Runs the encoder to the end, growing the output as libjxl asks.
    private static func output(of encoder: OpaquePointer) throws -> Data {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let (status, used) = output.withUnsafeMutableBufferPointer { buffer -> (JxlEncoderStatus, Int) in
                var next = buffer.baseAddress.map { $0 + written }
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - written - available)
            }
            written += used
            switch status {
            case JXL_ENC_SUCCESS: return Data(output.prefix(written))
            case JXL_ENC_NEED_MORE_OUTPUT: output.append(contentsOf: repeatElement(0, count: output.count))
            default: throw failure("libjxl failed (error \(JxlEncoderGetError(encoder).rawValue))")
            }
        }
    }

    private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer, _ what: String) throws {
        guard status == JXL_ENC_SUCCESS else {
            throw failure("libjxl rejected the \(what) (error \(JxlEncoderGetError(encoder).rawValue))")
        }
    }

    private static func failure(_ reason: String) -> WebImageError {
        .encodingFailed(format: .jxl, reason: reason)
    }
}
