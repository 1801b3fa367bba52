import CHEIF
import WebImageCore

/// Decodes one libheif image handle to straight-alpha RGBA: 8-bit, or 16-bit storage when the image is coded
/// with more than 8 bits (libheif's 10/12-bit samples are scaled to the full 16-bit range, as a 16-bit PNG
/// decode gives them).
///
/// libheif decodes grids tile by tile and applies `clap`, `irot` and `imir` itself (its default), so the
/// raster is the displayed image. Premultiplied alpha (`prem`) is divided out here.
enum HEIFRaster {
    static func decode(_ handle: OpaquePointer, store: inout RasterStore) throws -> PixelBuffer {
        // A file without a usable `hvcC`/`av1C`/`pixi` has no bit depth; `heif-convert` refuses it the same way.
        let depth = heif_image_handle_get_luma_bits_per_pixel(handle)
        guard depth > 0 else { throw WebImageError.badImageData(.corrupt("HEIF: the image has no defined bit depth")) }
        let wide = depth > 8
        let chroma = wide ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA
        var image: OpaquePointer?
        try HEIFStatus.check(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil))
        guard let image else { throw WebImageError.badImageData(.corrupt("HEIF: libheif returned no image")) }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0,
              let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw WebImageError.badImageData(.corrupt("HEIF: the decoded image has no pixels"))
        }
        let format: PixelFormat = wide ? .rgba16 : .rgba8
        let premultiplied = heif_image_handle_is_premultiplied_alpha(handle) != 0
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        return store.fill(width: width, height: height, format: format) { out in
            let rowBytes = width * format.bytesPerPixel
            for row in 0..<height {
                out.baseAddress!.advanced(by: row * rowBytes)
                    .copyMemory(from: plane.advanced(by: row * Int(stride)), byteCount: rowBytes)
            }
            if wide {
                let samples = out.bindMemory(to: UInt16.self)
                widen(samples, bits: bits)
                if premultiplied { AlphaUnpremultiplier.unpremultiply16(samples) }
            } else if premultiplied {
                AlphaUnpremultiplier.unpremultiply8(out.bindMemory(to: UInt8.self))
            }
        }
    }

    /// Scales little-endian `bits`-bit samples to native 16-bit ones (0…2^bits − 1 → 0…65535, rounded).
    private static func widen(_ samples: UnsafeMutableBufferPointer<UInt16>, bits: Int) {
        let maximum = UInt32((1 << max(1, min(16, bits))) - 1)
        for i in samples.indices {
            let value = min(UInt32(UInt16(littleEndian: samples[i])), maximum)
            samples[i] = UInt16((value * 65535 + maximum / 2) / maximum)
        }
    }
}
