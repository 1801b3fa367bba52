import CTIFF
import Foundation
import TestSupport
import WebImage

/// TIFF speed: `TIFFCoder.decode(_:reusing:options:)` beside libtiff's `TIFFReadRGBAImage`, each into one reused
/// raster, both reading the same bytes from memory: a 12 MP photo-like RGB and RGBA written by our encoder
/// (deflate + predictor) and libtiff's own test images (LZW strips, JPEG tiles, a palette).
enum TIFFBenchmarks {
    static func run() throws {
        // The raw side's handlers are libtiff's global ones: keep its warnings (old-style LZW) off the report.
        TIFFSetWarningHandler(nil)
        let raster = PNGBenchmarks.compressibleRaster(width: 4000, height: 3000)
        let opaque = raster.flattened(onto: .white)
        let generated: [(String, Data)] = [
            ("12 MP RGB deflate (ours)", try TIFFCoder().encode(Image(pixels: opaque), as: .tiff, options: .init())),
            ("12 MP RGBA deflate (ours)", try TIFFCoder().encode(Image(pixels: raster, hasAlpha: true), as: .tiff, options: .init())),
        ]
        let corpus = try ["quad-lzw-compat.tiff", "quad-tile.jpg.tiff", "palette-1c-8b.tiff", "rgb-3c-16b.tiff"].map {
            ($0, try TestCorpus.data("tiff/\($0)"))
        }
        let coder = TIFFCoder()
        for (name, data) in generated + corpus {
            let header = try coder.header(data)
            let pixels = header.pixelSize.pixelCount
            var buffer = [UInt32](repeating: 0, count: pixels)
            var reused = PixelBuffer(width: 1, height: 1)
            let rounds = pixels > 1_000_000 ? 9 : 401
            let comparison = try Measure.interleavedBest(rounds: rounds,
                { _ = try coder.decode(data, reusing: &reused, options: .init()) },
                { try readRGBA(data, into: &buffer) })
            Measure.decodeRow("TIFF decode \(name)", megapixels: Double(pixels) / 1e6, comparison)
        }
    }

    /// libtiff's whole-image RGBA reader from memory into `buffer`.
    static func readRGBA(_ data: Data, into buffer: inout [UInt32]) throws {
        try data.withUnsafeBytes { bytes in
            let source = RawSource(bytes: bytes)
            let handle = Unmanaged.passUnretained(source).toOpaque()
            guard let tif = TIFFClientOpen("bench", "r", handle, RawSource.read, RawSource.write, RawSource.seek,
                                           RawSource.close, RawSource.size, RawSource.map, RawSource.unmap) else {
                throw WebImageError.badImageData(.corrupt("libtiff could not open the file"))
            }
            defer { TIFFClose(tif) }
            var width: UInt32 = 0, height: UInt32 = 0
            _ = withUnsafeMutablePointer(to: &width) { p in withVaList([p]) { TIFFVGetField(tif, UInt32(TIFFTAG_IMAGEWIDTH), $0) } }
            _ = withUnsafeMutablePointer(to: &height) { p in withVaList([p]) { TIFFVGetField(tif, UInt32(TIFFTAG_IMAGELENGTH), $0) } }
            guard TIFFReadRGBAImage(tif, width, height, &buffer, 1) != 0 else {
                throw WebImageError.badImageData(.corrupt("libtiff could not decode the file"))
            }
        }
    }

    /// The bytes behind libtiff's client procedures, mapped as the coder maps them.
    private final class RawSource {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        static func from(_ handle: thandle_t?) -> RawSource { Unmanaged<RawSource>.fromOpaque(handle!).takeUnretainedValue() }

        static let read: TIFFReadWriteProc = { handle, buffer, size in
            let source = from(handle)
            let count = max(0, min(Int(size), source.bytes.count - source.position))
            if count > 0 { buffer!.copyMemory(from: source.bytes.baseAddress! + source.position, byteCount: count) }
            source.position += count
            return Int64(count)
        }
        static let write: TIFFReadWriteProc = { _, _, _ in -1 }
        static let seek: TIFFSeekProc = { handle, offset, whence in
            let source = from(handle)
            let base = whence == SEEK_CUR ? source.position : whence == SEEK_END ? source.bytes.count : 0
            source.position = base + Int(truncatingIfNeeded: offset)
            return UInt64(source.position)
        }
        static let close: TIFFCloseProc = { _ in 0 }
        static let size: TIFFSizeProc = { handle in UInt64(from(handle).bytes.count) }
        static let map: TIFFMapFileProc = { handle, base, size in
            let source = from(handle)
            base!.pointee = UnsafeMutableRawPointer(mutating: source.bytes.baseAddress!)
            size!.pointee = UInt64(source.bytes.count)
            return 1
        }
        static let unmap: TIFFUnmapFileProc = { _, _, _ in }
    }
}
