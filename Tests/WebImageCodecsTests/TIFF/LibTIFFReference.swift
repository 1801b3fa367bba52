import CTIFF
import Foundation

/// libtiff itself, as the tests' reference: its RGBA reader's output for a file, and a writer for files with
/// layouts and tags the coder's encoder never produces (16-bit, tiles, CMYK, orientation, several pages).
enum LibTIFFReference {
    /// Open options whose handlers swallow libtiff's messages (the files under test are often broken).
    private static func silentOptions() -> OpaquePointer {
        let options = TIFFOpenOptionsAlloc()!
        TIFFOpenOptionsSetErrorHandlerExtR(options, { _, _, _, _, _ in 1 }, nil)
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, nil)
        return options
    }

    static func field32(_ tif: OpaquePointer, _ tag: Int32) -> UInt32 {
        var value: UInt32 = 0
        _ = withUnsafeMutablePointer(to: &value) { pointer in withVaList([pointer]) { TIFFVGetField(tif, UInt32(tag), $0) } }
        return value
    }

    /// `TIFFReadRGBAImageOriented(…, ORIENTATION_TOPLEFT, stop on error)` on the first directory: premultiplied
    /// RGBA bytes, rows top first; nil when libtiff cannot read the file.
    static func rgba(path: String) -> (width: Int, height: Int, bytes: [UInt8])? {
        let options = silentOptions()
        defer { TIFFOpenOptionsFree(options) }
        guard let tif = TIFFOpenExt(path, "r", options) else { return nil }
        defer { TIFFClose(tif) }
        let width = Int(field32(tif, TIFFTAG_IMAGEWIDTH)), height = Int(field32(tif, TIFFTAG_IMAGELENGTH))
        guard width > 0, height > 0 else { return nil }
        var raster = [UInt32](repeating: 0, count: width * height)
        guard TIFFReadRGBAImageOriented(tif, UInt32(width), UInt32(height), &raster, ORIENTATION_TOPLEFT, 1) != 0 else {
            return nil
        }
        let bytes = raster.withUnsafeBytes { Array($0) }
        return (width, height, bytes)
    }

    /// One page to write: samples as stored, interleaved, `bitsPerSample` 8 or 16 (native-endian for 16).
    struct Page {
        var width: Int
        var height: Int
        var samples: [UInt16]
        var samplesPerPixel: Int
        var bitsPerSample = 8
        var photometric = PHOTOMETRIC_RGB
        /// The ExtraSamples value for the last sample, when there is one more than the colour needs.
        var extraSample: Int32?
        var orientation = ORIENTATION_TOPLEFT
        var tile: Int?
        var iccProfile: [UInt8]?
        var compression = COMPRESSION_LZW
    }

    /// A file of `pages` written by libtiff into a temporary file and read back.
    static func write(_ pages: [Page]) throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-\(UUID().uuidString).tif")
        defer { try? FileManager.default.removeItem(at: url) }
        let options = silentOptions()
        defer { TIFFOpenOptionsFree(options) }
        guard let tif = TIFFOpenExt(url.path, "w", options) else { throw CocoaError(.fileWriteUnknown) }
        for page in pages {
            func set(_ tag: Int32, _ values: any CVarArg...) {
                _ = withVaList(values) { TIFFVSetField(tif, UInt32(tag), $0) }
            }
            set(TIFFTAG_IMAGEWIDTH, UInt32(page.width)); set(TIFFTAG_IMAGELENGTH, UInt32(page.height))
            set(TIFFTAG_BITSPERSAMPLE, Int32(page.bitsPerSample)); set(TIFFTAG_SAMPLESPERPIXEL, Int32(page.samplesPerPixel))
            set(TIFFTAG_PHOTOMETRIC, page.photometric); set(TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG)
            set(TIFFTAG_ORIENTATION, page.orientation); set(TIFFTAG_COMPRESSION, page.compression)
            if page.photometric == PHOTOMETRIC_SEPARATED { set(TIFFTAG_INKSET, INKSET_CMYK) }
            if let extra = page.extraSample {
                var value = UInt16(extra)
                withUnsafeMutablePointer(to: &value) { set(TIFFTAG_EXTRASAMPLES, Int32(1), $0) }
            }
            if let profile = page.iccProfile {
                profile.withUnsafeBufferPointer { set(TIFFTAG_ICCPROFILE, UInt32($0.count), $0.baseAddress!) }
            }
            if pages.count > 1 { set(TIFFTAG_SUBFILETYPE, UInt32(FILETYPE_PAGE)) }
            let bytesPerSample = page.bitsPerSample / 8
            let raw: [UInt8] = bytesPerSample == 2
                ? page.samples.withUnsafeBytes { Array($0) } : page.samples.map { UInt8($0) }
            let rowBytes = page.width * page.samplesPerPixel * bytesPerSample
            if let tile = page.tile {
                set(TIFFTAG_TILEWIDTH, UInt32(tile)); set(TIFFTAG_TILELENGTH, UInt32(tile))
                let tileRow = tile * page.samplesPerPixel * bytesPerSample
                for ty in stride(from: 0, to: page.height, by: tile) {
                    for tx in stride(from: 0, to: page.width, by: tile) {
                        var buffer = [UInt8](repeating: 0, count: tileRow * tile)
                        for r in 0..<min(tile, page.height - ty) {
                            let columns = min(tile, page.width - tx) * page.samplesPerPixel * bytesPerSample
                            let from = (ty + r) * rowBytes + tx * page.samplesPerPixel * bytesPerSample
                            buffer.replaceSubrange(r * tileRow ..< r * tileRow + columns, with: raw[from ..< from + columns])
                        }
                        let index = TIFFComputeTile(tif, UInt32(tx), UInt32(ty), 0, 0)
                        _ = buffer.withUnsafeMutableBytes { TIFFWriteEncodedTile(tif, index, $0.baseAddress, Int64($0.count)) }
                    }
                }
            } else {
                set(TIFFTAG_ROWSPERSTRIP, UInt32(max(1, page.height / 3)))
                var row = 0, strip: UInt32 = 0
                while row < page.height {
                    let rows = min(max(1, page.height / 3), page.height - row)
                    var chunk = Array(raw[row * rowBytes ..< (row + rows) * rowBytes])
                    _ = chunk.withUnsafeMutableBytes { TIFFWriteEncodedStrip(tif, strip, $0.baseAddress, Int64($0.count)) }
                    row += rows
                    strip += 1
                }
            }
            TIFFWriteDirectory(tif)
        }
        TIFFClose(tif)
        return try Data(contentsOf: url)
    }

    /// A deterministic gradient pattern of `count` samples below `limit`.
    static func pattern(count: Int, limit: Int, seed: Int = 0) -> [UInt16] {
        (0..<count).map { UInt16((($0 &* 7919 &+ seed &* 104_729) ^ ($0 >> 3)) % limit) }
    }
}
