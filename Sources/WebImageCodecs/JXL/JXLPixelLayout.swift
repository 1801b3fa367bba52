import CJXL
import WebImageCore

/// How our rasters map onto libjxl's pixel formats.
enum JXLPixelLayout {
    /// Interleaved native-endian samples, rows without padding: 8-bit for `.rgba8`, 16-bit for `.rgba16`.
    static func jxlFormat(for format: PixelFormat, channels: UInt32) -> JxlPixelFormat {
        JxlPixelFormat(num_channels: channels, data_type: format == .rgba16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                       endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    /// The raster a source with these samples decodes to: 16-bit storage for anything finer than 8 bits
    /// (10/12/16-bit integers and floats), as the 16-bit PNG path does.
    static func pixelFormat(for info: JxlBasicInfo) -> PixelFormat {
        info.bits_per_sample > 8 || info.exponent_bits_per_sample > 0 ? .rgba16 : .rgba8
    }
}

/// What the decoders need from libjxl's basic info.
struct JXLHeader {
    /// The stored size (before orientation).
    let size: PixelSize
    let orientation: ImageOrientation
    let hasAlpha: Bool
    let isAnimated: Bool
    /// 0 = forever.
    let loopCount: Int
    /// Seconds per animation tick (`tps_denominator / tps_numerator`).
    let secondsPerTick: Double
    let pixelFormat: PixelFormat
    /// Bits per colour sample as coded (32 for float).
    let bitsPerSample: Int

    init(_ info: JxlBasicInfo) {
        size = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        orientation = ImageOrientation(exifValue: Int(info.orientation.rawValue))
        hasAlpha = info.alpha_bits > 0
        isAnimated = info.have_animation != 0
        loopCount = isAnimated ? Int(info.animation.num_loops) : 0
        secondsPerTick = info.animation.tps_numerator > 0
            ? Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator) : 0
        pixelFormat = JXLPixelLayout.pixelFormat(for: info)
        bitsPerSample = Int(info.bits_per_sample)
    }
}
