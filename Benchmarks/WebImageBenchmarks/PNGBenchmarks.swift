import CPNG
import Foundation
import WebImage

/// PNG speed: `PNGCoder` beside libpng's simplified API on the same bytes, decoding into one reused buffer on
/// both sides (`decode(_:reusing:options:)`), then into a fresh raster per decode on both sides (the default
/// `decode(_:options:)` against a new buffer per call); and `PNGCoder.encode` beside the simplified writer.
enum PNGBenchmarks {
    static func run() throws {
        let width = 4000, height = 3000
        let raster = compressibleRaster(width: width, height: height)
        let image = Image(pixels: raster, hasAlpha: true)
        let png = try PNGCoder().encode(image, as: .png, options: .init())
        print("12 MP RGBA PNG: \(png.count / 1024) KB")
        let megapixels = Double(width * height) / 1e6
        let coder = PNGCoder()
        var ourBuffer = PixelBuffer(width: 1, height: 1)
        var rawBuffer = [UInt8](repeating: 0, count: width * height * 4)
        let reused = try Measure.interleavedBest(rounds: 9,
            { _ = try coder.decode(png, reusing: &ourBuffer, options: .init()) },
            { try simplifiedDecode(png, into: &rawBuffer) })
        Measure.decodeRow("PNG decode 4000x3000 RGBA, reused", megapixels: megapixels, reused)
        let count = width * height * 4
        let fresh = try Measure.interleavedBest(rounds: 9, { _ = try coder.decode(png, options: .init()) }, {
            var buffer = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
            try simplifiedDecode(png, into: &buffer)
        })
        Measure.decodeRow("PNG decode 4000x3000 RGBA, fresh raster", megapixels: megapixels, fresh)

        let oursEncode = try Measure.best(repeats: 2) { _ = try coder.encode(image, as: .png, options: .init()) }
        var output = [UInt8](repeating: 0, count: png.count * 2 + 65_536)
        let rawEncode = try Measure.best(repeats: 2) { try simplifiedEncode(raster, into: &output) }
        Measure.row("PNG encode 4000x3000 RGBA", ours: megapixels / oursEncode, theirs: megapixels / rawEncode,
                    unit: "MP/s", higherIsBetter: true)
    }

    /// libpng's simplified writer from RGBA8 into a reused output buffer.
    static func simplifiedEncode(_ raster: PixelBuffer, into output: inout [UInt8]) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(raster.width)
        image.height = UInt32(raster.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size = output.count
        let written = output.withUnsafeMutableBytes { out in
            raster.withUnsafeBytes {
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, Int32(raster.bytesPerRow), nil)
            }
        }
        guard written != 0 else { throw WebImageError.encodingFailed(format: .png, reason: "simplified writer failed") }
    }

    /// Smooth gradients with a soft alpha ramp and some texture: compresses like a typical graphic.
    static func compressibleRaster(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8(x * 255 / width)
                    out[i + 1] = UInt8(y * 255 / height)
                    out[i + 2] = UInt8(((x / 16) ^ (y / 16)) & 0xFF)
                    out[i + 3] = UInt8(128 + (x + y) % 128)
                }
            }
        }
    }

    /// libpng's simplified API straight into `buffer` as 8-bit RGBA.
    static func simplifiedDecode(_ data: Data, into buffer: inout [UInt8]) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw WebImageError.badImageData(.corrupt("simplified API could not read the header")) }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let rowStride = Int32(image.width * 4)
        let finished = buffer.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, rowStride, nil) }
        guard finished != 0 else { throw WebImageError.badImageData(.corrupt("simplified API could not decode")) }
    }
}
