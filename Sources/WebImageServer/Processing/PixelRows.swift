import WebImage

/// The loop the colour and tone operations share: a raster as straight-alpha RGBA8, edited in place row by row.
///
/// Polls the worker's ``WorkCancellation`` every ``RasterOps/rowsPerCheck`` rows and, once cancelled, stops and
/// returns an unfinished result, as ``RasterOps`` does.
enum PixelRows {
    /// `pixels` as RGBA8 with `body` run on each row's bytes (`width × 4` of them) and the row's index.
    static func edited(_ pixels: PixelBuffer,
                       _ body: (UnsafeMutableBufferPointer<UInt8>, Int) -> Void) -> PixelBuffer {
        var result = pixels.converted(to: .rgba8)
        let cancellation = WorkCancellation.current
        let rowBytes = result.width * 4, height = result.height
        result.withUnsafeMutableBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                if y % RasterOps.rowsPerCheck == 0, cancellation?.shouldStop() == true { return }
                body(UnsafeMutableBufferPointer(rebasing: bytes[y * rowBytes ..< (y + 1) * rowBytes]), y)
            }
        }
        return result
    }

    /// `pixels` as RGBA8 with red, green and blue each looked up in its 256 entries of `table` (red's first,
    /// then green's, then blue's); alpha unchanged.
    static func mapped(_ pixels: PixelBuffer, through table: [UInt8]) -> PixelBuffer {
        precondition(table.count == 768, "one 256-entry table a channel")
        return table.withUnsafeBufferPointer { lut in
            edited(pixels) { row, _ in
                var i = 0
                while i < row.count {
                    row[i] = lut[Int(row[i])]
                    row[i + 1] = lut[256 + Int(row[i + 1])]
                    row[i + 2] = lut[512 + Int(row[i + 2])]
                    i += 4
                }
            }
        }
    }

    /// `value` within 0…1, NaN as 0: what the operations make of an opacity or an intensity.
    static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// `value` rounded (half away from zero) and clamped to a byte.
    @inline(__always)
    static func byte(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}
