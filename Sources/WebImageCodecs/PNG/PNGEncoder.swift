import CPNG
import Foundation
import WebImageCore

/// Writes still PNGs with libpng's simplified API (``ImageEncodeEffort/fastest`` and interlaced ones: with
/// ``PNGFastWriter``) and hands animations to ``APNGEncoder`` (never interlaced).
///
/// Output is 8-bit: RGB when no pixel is transparent, RGBA otherwise; 16-bit images are rounded to 8 bits.
/// An attached ``Image/iccProfile`` is written as an `iCCP` chunk right after IHDR, then ``Image/metadata`` as
/// `eXIf` and `iTXt` chunks (``PNGMetadata``), then ``ImageEncodeOptions/dpi`` as `pHYs`: whichever writer made
/// the stream (libpng, ``PNGFastWriter``, ``PNGPaletteWriter``, ``APNGEncoder``), these are added here.
enum PNGEncoder {
    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let frames = options.frames(of: image)
        let rasters = frames.map { $0.pixels.converted(to: .rgba8) }
        let hasAlpha = image.hasAlpha && rasters.contains { $0.containsTransparency }
        let effort = options.resolvedEffort
        var png = rasters.count == 1
            ? try write(rasters[0], alpha: hasAlpha, effort: effort, interlaced: options.tuning.pngInterlaced,
                        paletteColors: options.tuning.pngQuantizeColors)
            : try APNGEncoder.encode(rasters, durations: frames.map(\.duration),
                                     loopCount: options.loopCount ?? image.loopCount, alpha: hasAlpha, effort: effort)
        if let dpi = options.resolvedDPI {
            png.insert(contentsOf: physicalSizeChunk(dpi: dpi), at: 33)
        }
        if let metadata = image.metadata {
            png.insert(contentsOf: PNGMetadata.chunks(for: metadata, orientation: image.orientation), at: 33)
        }
        if let profile = image.iccProfile, !profile.isEmpty {
            // The signature (8 bytes) and IHDR (12 + 13) always come first.
            png.insert(contentsOf: try PNGICCWriter.chunk(for: [UInt8](profile)), at: 33)
        }
        return Data(png)
    }

    /// The `pHYs` chunk for `dpi`: the same pixels per metre (`dpi / 0.0254`, rounded) across and down, unit 1
    /// (the metre).
    private static func physicalSizeChunk(dpi: Double) -> [UInt8] {
        let perMetre = UInt32((dpi / 0.0254).rounded())
        var body: [UInt8] = []
        body.appendBigEndian(perMetre)
        body.appendBigEndian(perMetre)
        body.append(1)
        var writer = PNGChunkWriter()
        writer.append(PNGChunkType.pHYs, body)
        return Array(writer.bytes.dropFirst(PNGSignature.bytes.count))
    }

    /// One PNG stream of an RGBA8 raster, with an alpha channel only when `alpha`; an interlaced one is
    /// ``PNGFastWriter``'s at libdeflate's level 1 (fastest) or 9 (balanced: its Sub-only filtering leans on
    /// the deflate level where libpng's adaptive filters would); with `paletteColors`, ``PNGPaletteWriter``'s.
    static func write(_ pixels: PixelBuffer, alpha: Bool, effort: ImageEncodeEffort, interlaced: Bool = false,
                      paletteColors: Int? = nil) throws -> [UInt8] {
        if let paletteColors {
            return try PNGPaletteWriter.write(pixels, colors: paletteColors, interlaced: interlaced,
                                              level: effort == .fastest ? 1 : 9)
        }
        return switch (effort, interlaced) {
        case (.fastest, _): try PNGFastWriter.write(pixels, alpha: alpha, interlaced: interlaced)
        case (.balanced, true): try PNGFastWriter.write(pixels, alpha: alpha, interlaced: true, level: 9)
        case (.balanced, false): try writeSimplified(pixels, alpha: alpha)
        }
    }

    /// libpng's simplified writer: zlib level 6 and its adaptive per-row filter choice.
    private static func writeSimplified(_ pixels: PixelBuffer, alpha: Bool) throws -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixels.width)
        image.height = UInt32(pixels.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR) | (alpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
        let channels = alpha ? 4 : 3
        let source = alpha ? pixels.bytes : rgb(pixels)
        let rowBytes = pixels.width * channels
        // Stored deflate blocks cost 5 bytes in 64 KB, so this fits even incompressible data in one pass.
        var capacity = pixels.height * (rowBytes + 1) + pixels.height * (rowBytes + 1) / 1000 + 4096
        for _ in 0..<2 {
            var size = capacity
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                let ok = source.withUnsafeBytes {
                    png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, $0.baseAddress, Int32(rowBytes), nil)
                }
                count = ok != 0 ? size : 0
            }
            png_image_free(&image)
            if !output.isEmpty { return output }
            guard size > capacity else { break }
            capacity = size
        }
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        throw WebImageError.encodingFailed(format: .png, reason: message.isEmpty ? "libpng could not write the image" : message)
    }

    /// The RGB bytes of an RGBA8 raster (alpha dropped).
    private static func rgb(_ pixels: PixelBuffer) -> [UInt8] {
        let count = pixels.width * pixels.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            pixels.withUnsafeBytes { source in
                for i in 0..<count {
                    out[i * 3] = source[i * 4]
                    out[i * 3 + 1] = source[i * 4 + 1]
                    out[i * 3 + 2] = source[i * 4 + 2]
                }
            }
            initialized = count * 3
        }
    }
}
