import CTIFF
import WebImageCore

/// Decodes contiguous 8- or 16-bit grey or RGB directories (and 8-bit CMYK for a profile to convert) strip by
/// strip or tile by tile with libtiff's codecs, expanding the samples straight into the RGBA raster: no
/// premultiplication round trip and 16 bits kept, where libtiff's RGBA reader gives premultiplied 8-bit pixels.
struct TIFFDirectReader {
    let file: TIFFFile
    let page: TIFFPage

    /// How one stored pixel becomes an output pixel.
    enum Expansion {
        /// Grey or RGB (with alpha when the page has it) to RGBA of the same bit depth.
        case rgba
        /// The first four samples as they are (C, M, Y, K), four bytes a pixel, for the CMYK profile conversion.
        case cmyk
    }

    /// Fills `out` (a `width × height` raster of 4 samples a pixel, 1 or 2 bytes each per `page`'s depth).
    func read(into out: UnsafeMutableRawBufferPointer, expansion: Expansion) throws {
        let bytesPerSample = page.bitsPerSample / 8
        if page.isTiled {
            try readTiles(into: out, bytesPerSample: bytesPerSample, expansion: expansion)
        } else {
            try readStrips(into: out, bytesPerSample: bytesPerSample, expansion: expansion)
        }
        if expansion == .rgba && page.alpha == .associated {
            if bytesPerSample == 2 {
                AlphaUnpremultiplier.unpremultiply16(out.bindMemory(to: UInt16.self))
            } else {
                AlphaUnpremultiplier.unpremultiply8(out.bindMemory(to: UInt8.self))
            }
        }
    }

    private func readStrips(into out: UnsafeMutableRawBufferPointer, bytesPerSample: Int, expansion: Expansion) throws {
        let rowsPerStrip = min(page.height, Int(file.value(TIFFTAG_ROWSPERSTRIP, default: UInt32.max)))
        let rowBytes = page.width * page.samplesPerPixel * bytesPerSample
        // RGBA is stored as the raster holds it: such strips are decoded straight into their rows.
        let inPlace = expansion == .rgba && page.colorSamples == 3 && page.samplesPerPixel == 4
        let scratch = inPlace ? nil : try Scratch(count: rowBytes * max(1, rowsPerStrip), page: page)
        defer { scratch?.free() }
        var row = 0, strip: UInt32 = 0
        while row < page.height {
            let rows = min(rowsPerStrip, page.height - row)
            let target = scratch?.base ?? out.baseAddress! + row * rowBytes
            file.log.reset()
            let got = TIFFReadEncodedStrip(file.handle, strip, target, Int64(rows * rowBytes))
            guard got >= Int64(rows * rowBytes) else { throw file.log.failure("strip \(strip) cannot be decoded") }
            if scratch != nil {
                for r in 0..<rows {
                    expand(UnsafeRawPointer(target + r * rowBytes), count: page.width,
                           to: out, x: 0, y: row + r, bytesPerSample: bytesPerSample, expansion: expansion)
                }
            }
            row += rows
            strip += 1
        }
    }

    private func readTiles(into out: UnsafeMutableRawBufferPointer, bytesPerSample: Int, expansion: Expansion) throws {
        let tileWidth = Int(file.value(TIFFTAG_TILEWIDTH, default: UInt32(0)))
        let tileHeight = Int(file.value(TIFFTAG_TILELENGTH, default: UInt32(0)))
        guard tileWidth > 0, tileHeight > 0 else {
            throw WebImageError.badImageData(.corrupt("tile size \(tileWidth)x\(tileHeight)"))
        }
        let tileRowBytes = tileWidth * page.samplesPerPixel * bytesPerSample
        let tileBytes = tileRowBytes * tileHeight
        let scratch = try Scratch(count: tileBytes, page: page)
        defer { scratch.free() }
        for y in stride(from: 0, to: page.height, by: tileHeight) {
            for x in stride(from: 0, to: page.width, by: tileWidth) {
                let tile = TIFFComputeTile(file.handle, UInt32(x), UInt32(y), 0, 0)
                file.log.reset()
                guard TIFFReadEncodedTile(file.handle, tile, scratch.base, Int64(tileBytes)) >= Int64(tileBytes) else {
                    throw file.log.failure("tile \(tile) cannot be decoded")
                }
                let columns = min(tileWidth, page.width - x)
                for r in 0..<min(tileHeight, page.height - y) {
                    expand(UnsafeRawPointer(scratch.base + r * tileRowBytes), count: columns, to: out, x: x, y: y + r,
                           bytesPerSample: bytesPerSample, expansion: expansion)
                }
            }
        }
    }

    /// Expands `count` stored pixels at `source` into the output row `y` from column `x`.
    private func expand(_ source: UnsafeRawPointer, count: Int, to out: UnsafeMutableRawBufferPointer, x: Int, y: Int,
                        bytesPerSample: Int, expansion: Expansion) {
        let stride = page.samplesPerPixel
        let start = (y * page.width + x) * 4
        if bytesPerSample == 2 {
            let input = source.assumingMemoryBound(to: UInt16.self)
            let output = out.baseAddress!.assumingMemoryBound(to: UInt16.self) + start
            Self.expand(input, count: count, stride: stride, grey: page.colorSamples == 1, alpha: page.hasAlpha,
                        opaque: UInt16.max, into: output)
        } else {
            let input = source.assumingMemoryBound(to: UInt8.self)
            let output = out.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
            if expansion == .cmyk {
                for i in 0..<count {
                    for c in 0..<4 { output[i * 4 + c] = input[i * stride + c] }
                }
            } else if stride == 3 && page.colorSamples == 3 {
                Self.expandRGB(input, count: count, into: output)
            } else {
                Self.expand(input, count: count, stride: stride, grey: page.colorSamples == 1, alpha: page.hasAlpha,
                            opaque: UInt8.max, into: output)
            }
        }
    }

    /// 8-bit RGB, the common case: a pixel is one word store (four byte stores cost a fifth of a deflate decode).
    private static func expandRGB(_ input: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>) {
        let words = UnsafeMutableRawPointer(output)
        for i in 0..<count {
            let s = i * 3
            let word = UInt32(input[s]) | UInt32(input[s + 1]) << 8 | UInt32(input[s + 2]) << 16 | 0xFF00_0000
            words.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
        }
    }

    @inline(__always)
    private static func expand<S: FixedWidthInteger>(_ input: UnsafePointer<S>, count: Int, stride: Int, grey: Bool,
                                                     alpha: Bool, opaque: S, into output: UnsafeMutablePointer<S>) {
        switch (grey, alpha) {
        case (false, false):
            for i in 0..<count {
                let s = i * stride, o = i * 4
                output[o] = input[s]; output[o + 1] = input[s + 1]; output[o + 2] = input[s + 2]; output[o + 3] = opaque
            }
        case (false, true):
            for i in 0..<count {
                let s = i * stride, o = i * 4
                output[o] = input[s]; output[o + 1] = input[s + 1]; output[o + 2] = input[s + 2]
                output[o + 3] = input[s + 3]
            }
        case (true, false):
            for i in 0..<count {
                let v = input[i * stride], o = i * 4
                output[o] = v; output[o + 1] = v; output[o + 2] = v; output[o + 3] = opaque
            }
        case (true, true):
            for i in 0..<count {
                let s = i * stride, o = i * 4
                let v = input[s]
                output[o] = v; output[o + 1] = v; output[o + 2] = v; output[o + 3] = input[s + 1]
            }
        }
    }

    /// A strip or tile buffer, bounded like libtiff's own allocations (``TIFFDecoding/allocationLimit(for:)``).
    private struct Scratch {
        let base: UnsafeMutableRawPointer

        init(count: Int, page: TIFFPage) throws {
            guard count > 0, count <= TIFFDecoding.allocationLimit(for: page) else {
                throw WebImageError.badImageData(.corrupt("a strip or tile of \(count) bytes"))
            }
            base = .allocate(byteCount: count, alignment: 16)
        }

        func free() { base.deallocate() }
    }
}
