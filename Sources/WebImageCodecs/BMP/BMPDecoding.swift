import Foundation
import WebImageCore

/// Decodes a parsed BMP (a file, or a DIB inside an ICO) to an RGBA8 raster.
enum BMPDecoding {
    /// The raster and whether it holds transparency, after checking the size against the pixel limit and, for
    /// uncompressed data, against the bytes present (before anything the size of the image is allocated).
    static func raster(_ bytes: UnsafeRawBufferPointer, header: BMPHeader, options: ImageDecodeOptions) throws
        -> (pixels: PixelBuffer, hasAlpha: Bool) {
        try options.checkPixelCount(width: header.width, height: header.height)
        // OS/2 writers may put the headers' size in the file size field: only a larger value means missing bytes.
        if header.declaredFileSize > bytes.count && header.declaredFileSize > header.pixelOffset {
            throw WebImageError.badImageData(.truncated)
        }
        if header.compression == .none || header.compression == .bitfields {
            try checkLength(bytes, header: header)
        }
        var skipped = false
        let pixels = try PixelBuffer(width: header.width, height: header.height) { out in
            let pixels = out.bindMemory(to: UInt32.self).baseAddress!
            switch header.compression {
            case .rle4, .rle8:
                out.initializeMemory(as: UInt8.self, repeating: 0)
                skipped = try BMPRunLengthReader(header: header).read(bytes, into: pixels)
            case .none, .bitfields:
                try BMPRasterReader(header: header).read(bytes, into: pixels)
            }
        }
        return (pixels, header.hasAlpha || skipped)
    }

    /// Uncompressed rows must all be there (the last row's padding may be missing); a biSizeImage that is
    /// neither the rows' size nor within the file is a damaged header.
    private static func checkLength(_ bytes: UnsafeRawBufferPointer, header: BMPHeader) throws {
        let available = bytes.count - header.pixelOffset
        let (rows, overflow) = header.rowStride.multipliedReportingOverflow(by: header.height)
        if header.imageSize > available && header.imageSize != rows {
            throw WebImageError.badImageData(.corrupt("BMP image size \(header.imageSize) is larger than the file"))
        }
        let needed = overflow ? Int.max : rows - header.rowStride + (header.width * header.bitCount + 7) / 8
        guard needed <= available else { throw WebImageError.badImageData(.truncated) }
    }

    /// A BMP file's image, colour-managed through its embedded profile per the options.
    static func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { bytes in
            let header = try BMPHeader.parse(file: bytes)
            var (pixels, hasAlpha) = try raster(bytes, header: header, options: options)
            let outcome = ColorManagement.manage(&pixels, profile: header.iccProfile, options: options)
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: .bmp, hasAlpha: hasAlpha,
                              iccProfile: outcome.iccProfile, colorProfileIssue: outcome.issue)
            return options.finish(image, sourceSize: pixels.size)
        }
    }

    /// The header of a BMP file without decoding its pixels.
    static func header(_ data: Data) throws -> ImageHeader {
        try data.withUnsafeBytes { bytes in
            let header = try BMPHeader.parse(file: bytes)
            let depth = header.bitCount <= 8 ? header.bitCount
                : header.compression == .bitfields ? header.masks.map(\.nonzeroBitCount).max() ?? 8 : 8
            return ImageHeader(format: .bmp, pixelSize: PixelSize(width: header.width, height: header.height),
                               hasAlpha: header.hasAlpha, bitDepth: depth,
                               hasColorDescription: header.iccProfile != nil)
        }
    }
}
