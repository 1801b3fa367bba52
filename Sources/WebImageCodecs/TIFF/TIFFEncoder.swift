import CTIFF
import Foundation
import WebImageCore

/// Writes 8-bit RGB or RGBA TIFFs, deflate-compressed with the horizontal predictor (lossless, so `quality` and
/// `maxFileSize` do not apply), one page per frame. The orientation is applied to the pixels (every reader
/// shows them upright, also those that ignore the tag); an attached ``Image/iccProfile`` is written as the
/// ICC profile tag.
enum TIFFEncoder {
    /// Rows per strip are chosen so a strip holds about this many bytes: large enough for deflate to find its
    /// matches, small enough that a reader need not hold the whole image at once.
    private static let stripBytes = 256 << 10

    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let rasters = options.frames(of: image).map { $0.pixels.converted(to: .rgba8).applying(image.orientation) }
        let alpha = image.hasAlpha && rasters.contains { $0.containsTransparency }
        let profile = image.iccProfile.flatMap { $0.isEmpty ? nil : [UInt8]($0) }
        let file = try TIFFFile.open(writingCapacity: rasters.reduce(0) { $0 + $1.bytes.count / 2 } + 4096)
        for (index, pixels) in rasters.enumerated() {
            try writePage(pixels, to: file, alpha: alpha, profile: profile, page: index, of: rasters.count,
                          effort: options.resolvedEffort)
        }
        try file.finish()
        return Data(file.stream.written)
    }

    private static func writePage(_ pixels: PixelBuffer, to file: TIFFFile, alpha: Bool, profile: [UInt8]?, page: Int,
                                  of pageCount: Int, effort: ImageEncodeEffort) throws {
        let channels = alpha ? 4 : 3
        let rowBytes = pixels.width * channels
        let rowsPerStrip = max(1, min(pixels.height, stripBytes / rowBytes))
        file.log.reset()
        var ok = file.set(TIFFTAG_IMAGEWIDTH, UInt32(pixels.width))
            && file.set(TIFFTAG_IMAGELENGTH, UInt32(pixels.height))
            && file.set(TIFFTAG_BITSPERSAMPLE, Int32(8))
            && file.set(TIFFTAG_SAMPLESPERPIXEL, Int32(channels))
            && file.set(TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB)
            && file.set(TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG)
            && file.set(TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT)
            && file.set(TIFFTAG_ROWSPERSTRIP, UInt32(rowsPerStrip))
            && file.set(TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE)
            && file.set(TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL)
            && file.set(TIFFTAG_ZIPQUALITY, Int32(effort == .fastest ? 1 : 6))
        if alpha {
            var extra = UInt16(EXTRASAMPLE_UNASSALPHA)
            ok = ok && withUnsafeMutablePointer(to: &extra) { file.set(TIFFTAG_EXTRASAMPLES, Int32(1), $0) }
        }
        if let profile {
            ok = ok && profile.withUnsafeBytes { file.set(TIFFTAG_ICCPROFILE, UInt32($0.count), UnsafeMutablePointer(mutating: $0.baseAddress!.assumingMemoryBound(to: UInt8.self))) }
        }
        if pageCount > 1 {
            ok = ok && file.set(TIFFTAG_SUBFILETYPE, UInt32(FILETYPE_PAGE))
                && file.set(TIFFTAG_PAGENUMBER, Int32(page), Int32(pageCount))
        }
        guard ok else { throw encodingFailure(file, "libtiff refused a tag") }
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: rowsPerStrip * rowBytes)
        defer { out.deallocate() }
        try pixels.withUnsafeBytes { source in
            var row = 0, index: UInt32 = 0
            while row < pixels.height {
                let rows = min(rowsPerStrip, pixels.height - row)
                let input = source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * pixels.width * 4
                if alpha {
                    out.update(from: input, count: rows * rowBytes)
                } else {
                    for i in 0..<rows * pixels.width {
                        out[i * 3] = input[i * 4]; out[i * 3 + 1] = input[i * 4 + 1]; out[i * 3 + 2] = input[i * 4 + 2]
                    }
                }
                guard TIFFWriteEncodedStrip(file.handle, index, out, Int64(rows * rowBytes)) >= 0 else {
                    throw encodingFailure(file, "strip \(index) could not be written")
                }
                row += rows
                index += 1
            }
        }
        guard TIFFWriteDirectory(file.handle) != 0 else { throw encodingFailure(file, "the directory could not be written") }
    }

    private static func encodingFailure(_ file: TIFFFile, _ fallback: String) -> WebImageError {
        WebImageError.encodingFailed(format: .tiff, reason: file.log.errors.first ?? fallback)
    }
}
