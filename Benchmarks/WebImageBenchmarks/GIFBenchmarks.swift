import CGIF
import Foundation
import TestSupport
import WebImage

/// GIFCoder's full animated decode beside raw giflib (`DGifSlurp` plus the minimal compositing loop that
/// produces the same per-frame canvases), on the same bytes: both painting the first frame into one reused
/// canvas (`decode(_:reusing:options:)`), then both allocating every canvas afresh (the default path).
enum GIFBenchmarks {
    static func run() throws {
        for name in ["sample_big.gif", "gifplayer-muybridge.gif", "moon_impact.gif"] {
            let data = try TestCorpus.data("gif/samples/\(name)")
            let coder = GIFCoder()
            let image = try coder.decode(data, options: .init())
            let megapixels = Double(image.pixelWidth * image.pixelHeight * image.frameCount) / 1e6
            var rawCanvas: [UInt8] = []
            guard let raw = RawGIF.decode(data, reusing: &rawCanvas), raw.count == image.frameCount else {
                print("\(name): raw giflib decode failed")
                continue
            }
            // Small files get more rounds: a best-of over milliseconds needs many to dodge scheduling noise.
            let rounds = max(15, min(100, Int(60 / megapixels)))
            var buffer = PixelBuffer(width: 1, height: 1)
            let reused = try Measure.interleavedBest(rounds: rounds,
                { _ = try coder.decode(data, reusing: &buffer, options: .init()) },
                { _ = RawGIF.decode(data, reusing: &rawCanvas) })
            Measure.decodeRow("decode \(name) (\(image.frameCount) frames), reused", megapixels: megapixels,
                              reused)
            let fresh = try Measure.interleavedBest(rounds: rounds, { _ = try coder.decode(data, options: .init()) }, {
                var canvas: [UInt8] = []
                _ = RawGIF.decode(data, reusing: &canvas)
            })
            Measure.decodeRow("decode \(name), fresh rasters", megapixels: megapixels, fresh)
        }
        try runEncode()
    }

    /// Encoding a photo-like still (far more than 256 colours): our median cut + giflib's writer beside giflib's
    /// own `GifQuantizeBuffer` + writer.
    static func runEncode() throws {
        let width = 800, height = 600
        let pixels = PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4, noise = (x * 7919 + y * 104_729) % 23
                    out[i] = UInt8((x * 255 / width + noise) & 0xFF)
                    out[i + 1] = UInt8((y * 255 / height + noise * 2) & 0xFF)
                    out[i + 2] = UInt8(((x + y) * 255 / (width + height)) & 0xFF)
                    out[i + 3] = 255
                }
            }
        }
        let image = Image(pixels: pixels, format: .undefined, hasAlpha: false)
        let coder = GIFCoder()
        let megapixels = Double(width * height) / 1e6
        var ours = Double.infinity, theirs = Double.infinity
        for _ in 0..<3 {
            ours = min(ours, try Measure.best(repeats: 2) { _ = try coder.encode(image, as: .gif, options: .init()) })
            theirs = min(theirs, Measure.best(repeats: 2) { _ = RawGIF.encode(pixels) })
        }
        Measure.row("encode 800x600 photo-like still", ours: megapixels / ours, theirs: megapixels / theirs,
                    unit: "MP/s", higherIsBetter: true)
    }
}

/// The baseline: giflib's own slurp, then the simplest correct compositing (disposal 2 clears to
/// transparent, 3 restores, transparent index skipped, frames clipped), one canvas copy per frame.
private enum RawGIF {
    final class Source {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    /// Every composited frame; the first is painted into `canvas` (reused when it is the right size and
    /// not shared), which afterwards holds that frame.
    static func decode(_ data: Data, reusing canvas: inout [UInt8]) -> [[UInt8]]? {
        data.withUnsafeBytes { bytes -> [[UInt8]]? in
            let source = Source(bytes)
            var error: Int32 = 0
            let reader: InputFunc = { file, out, count in
                guard let file, let out, let user = file.pointee.UserData else { return 0 }
                let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
                let n = max(0, min(Int(count), source.bytes.count - source.position))
                if n > 0, let base = source.bytes.baseAddress {
                    UnsafeMutableRawPointer(out).copyMemory(from: base + source.position, byteCount: n)
                }
                source.position += n
                return Int32(n)
            }
            guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), reader, &error) else { return nil }
            defer { DGifCloseFile(gif, nil) }
            guard DGifSlurp(gif) == GIF_OK else { return nil }
            return withExtendedLifetime(source) { composite(gif, reusing: &canvas) }
        }
    }

    /// giflib's median cut (`GifQuantizeBuffer`) on the RGB planes, then one image written to memory.
    static func encode(_ pixels: PixelBuffer) -> Data? {
        let count = pixels.width * pixels.height
        var red = [UInt8](repeating: 0, count: count), green = red, blue = red
        pixels.withUnsafeBytes { raw in
            for i in 0..<count { (red[i], green[i], blue[i]) = (raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2]) }
        }
        var indices = [UInt8](repeating: 0, count: count)
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        var mapSize: Int32 = 256
        guard GifQuantizeBuffer(UInt32(pixels.width), UInt32(pixels.height), &mapSize, &red, &green,
                                &blue, &indices, &colors) == GIF_OK,
              let map = GifMakeMapObject(256, colors) else { return nil }
        defer { GifFreeMapObject(map) }
        final class Sink { var data = Data() }
        let sink = Sink()
        var error: Int32 = 0
        let writer: OutputFunc = { file, bytes, count in
            guard let file, let bytes, let user = file.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
            return count
        }
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), writer, &error) else { return nil }
        let ok = EGifPutScreenDesc(gif, Int32(pixels.width), Int32(pixels.height), 8, 0, nil) == GIF_OK
            && EGifPutImageDesc(gif, 0, 0, Int32(pixels.width), Int32(pixels.height), false, map) == GIF_OK
            && EGifPutLine(gif, &indices, Int32(count)) == GIF_OK
        let closed = EGifCloseFile(gif, &error) == GIF_OK
        return withExtendedLifetime(sink) { ok && closed ? sink.data : nil }
    }

    static func composite(_ gif: UnsafeMutablePointer<GifFileType>, reusing reused: inout [UInt8]) -> [[UInt8]] {
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        var canvas: [UInt8] = []
        swap(&canvas, &reused)
        if canvas.count == width * height * 4 {
            _ = canvas.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        } else {
            canvas = [UInt8](repeating: 0, count: width * height * 4)
        }
        var saved: [UInt8]?
        var frames: [[UInt8]] = []
        defer { reused = frames.first ?? canvas }
        var previous: (x0: Int, y0: Int, x1: Int, y1: Int, disposal: Int32)?
        for i in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[i]
            var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            DGifSavedExtensionToGCB(gif, Int32(i), &control)
            if let p = previous {
                if p.disposal == DISPOSE_BACKGROUND {
                    for y in p.y0..<p.y1 { for x in p.x0..<p.x1 { for c in 0..<4 { canvas[(y * width + x) * 4 + c] = 0 } } }
                } else if p.disposal == DISPOSE_PREVIOUS, let saved {
                    canvas = saved
                }
            }
            saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            let desc = image.ImageDesc
            let x0 = max(0, Int(desc.Left)), y0 = max(0, Int(desc.Top))
            let x1 = min(width, Int(desc.Left + desc.Width)), y1 = min(height, Int(desc.Top + desc.Height))
            previous = (x0, y0, max(x0, x1), max(y0, y1), control.DisposalMode)
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors,
                  let raster = image.RasterBits else { frames.append(canvas); continue }
            let colorCount = Int(map.pointee.ColorCount), transparent = Int(control.TransparentColor)
            canvas.withUnsafeMutableBufferPointer { out in
                for y in y0..<max(y0, y1) {
                    for x in x0..<max(x0, x1) {
                        let index = Int(raster[(y - Int(desc.Top)) * Int(desc.Width) + (x - Int(desc.Left))])
                        guard index != transparent else { continue }
                        let o = (y * width + x) * 4
                        if index < colorCount {
                            let color = colors[index]
                            (out[o], out[o + 1], out[o + 2], out[o + 3]) = (color.Red, color.Green, color.Blue, 255)
                        } else {
                            (out[o], out[o + 1], out[o + 2], out[o + 3]) = (0, 0, 0, 255)
                        }
                    }
                }
            }
            frames.append(canvas)
        }
        return frames
    }
}
