import CPNGShim
import Foundation
import WebImageCore

/// Shows a PNG while it downloads, through libpng's progressive reader.
///
/// Interlaced (Adam7) images yield a partial image after every completed pass, each known pixel filling its
/// block so the picture sharpens pass by pass; non-interlaced images yield the rows decoded so far (the rest
/// transparent). The final image is the canvas itself when the reader reached the end of a still image,
/// otherwise (animations, damaged data) the one-shot decode, so it always equals ``PNGCoder/decode(_:options:)``.
final class PNGProgressiveDecoder: ProgressiveImageDecoder {
    private let coder: PNGCoder
    private let options: ImageDecodeOptions
    private var header: PNGHeader?
    private var format = PixelFormat.rgba8
    private var canvas: UnsafeMutableRawBufferPointer?
    private var reader: OpaquePointer?
    private var fed = 0
    private var shownPasses = 0
    private var shownRows: UInt32 = 0
    private var failure: WebImageError?
    /// Reports the eXIf orientation once that chunk has arrived.
    private var orientationReader = PNGOrientationReader()
    /// The colour chunks' profile, read once image rows exist (the chunks come before the image data).
    private var profile: Result<[UInt8]?, ColorProfileFailure>?
    /// The bytes of the current call, for reading the colour chunks.
    private var received = Data()

    init(coder: PNGCoder, options: ImageDecodeOptions) {
        self.coder = coder
        self.options = options
    }

    deinit {
        cpng_progressive_destroy(reader)
        canvas?.deallocate()
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        data.withUnsafeBytes { orientationReader.advance(over: $0) }
        received = data
        defer { received = Data() }
        if isFinished {
            // A failure here is reported by the one-shot decode the final image then falls back to.
            if failure == nil { try? feed(data) }
            return try finalImage(data)
        }
        if let failure { throw failure }
        try feed(data)
        return partialImage()
    }

    /// Hands libpng the bytes it has not seen yet, starting the reader once the header has arrived.
    private func feed(_ data: Data) throws {
        guard data.count > fed else { return }
        if reader == nil {
            guard data.count >= 33 else { return }
            try data.withUnsafeBytes { try start(PNGHeader.parse($0)) }
        }
        guard let reader else { return }
        let status = data.withUnsafeBytes { bytes in
            let newBytes = UnsafeRawBufferPointer(rebasing: bytes[fed...])
            return cpng_progressive_feed(reader, newBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), newBytes.count)
        }
        fed = data.count
        guard status == CPNG_OK else {
            // libpng's state is unusable after an error: keep reporting it.
            let error = PNGRasterDecoder.error(status, String(cString: cpng_progressive_message(reader)))
            failure = error
            throw error
        }
    }

    /// Checks the header against the pixel limit and sets up the canvas and the reader.
    private func start(_ header: PNGHeader) throws {
        try options.checkPixelCount(width: header.width, height: header.height)
        format = header.bitDepth == 16 ? .rgba16 : .rgba8
        let rowBytes = header.width * format.bytesPerPixel
        let canvas = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * header.height, alignment: 16)
        canvas.initializeMemory(as: UInt8.self, repeating: 0)
        guard let reader = cpng_progressive_create(canvas.baseAddress, rowBytes, UInt32(header.height)) else {
            canvas.deallocate()
            throw WebImageError.badImageData(.corrupt("libpng could not start a progressive reader"))
        }
        self.header = header
        self.canvas = canvas
        self.reader = reader
    }

    /// A partial image when the last bytes completed a pass (interlaced) or rows (non-interlaced), else nil.
    private func partialImage() -> Image? {
        guard let reader, let header, let canvas, cpng_progressive_finished(reader) == 0 else { return nil }
        var pixels: PixelBuffer?
        if header.interlaced {
            let passes = Int(cpng_progressive_passes_done(reader))
            guard passes > shownPasses else { return nil }
            shownPasses = passes
            pixels = blockFilled(canvas, header: header, passes: passes)
        } else {
            let rows = cpng_progressive_rows_done(reader)
            guard rows > shownRows else { return nil }
            shownRows = rows
            pixels = PixelBuffer(width: header.width, height: header.height, format: format) {
                $0.copyMemory(from: UnsafeRawBufferPointer(canvas))
            }
        }
        guard let pixels else { return nil }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: orientationReader.orientation,
                          format: .png, hasAlpha: true, isIncremental: true)
        return managedColor(options.finish(image, sourceSize: header.size))
    }

    /// The final image: the finished canvas for a still image, else the one-shot decode (which also reports
    /// any damage).
    private func finalImage(_ data: Data) throws -> Image {
        guard let reader, let header, let canvas, cpng_progressive_finished(reader) != 0, fed == data.count,
              !data.withUnsafeBytes({ PNGHeader.isAnimated($0) }) else {
            return try coder.decode(data, options: options)
        }
        var info = cpng_header()
        _ = cpng_progressive_header(reader, &info)
        let pixels = PixelBuffer(width: header.width, height: header.height, format: format) {
            $0.copyMemory(from: UnsafeRawBufferPointer(canvas))
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: orientationReader.orientation,
                          format: .png, hasAlpha: info.has_alpha != 0)
        return managedColor(options.finish(image, sourceSize: header.size))
    }

    /// `image` colour-managed from the colour chunks (all before the image data), after resampling as the
    /// one-shot decode does it (a thumbnail is converted at its own size).
    private func managedColor(_ image: Image) -> Image {
        let profile = self.profile ?? received.withUnsafeBytes { PNGColorReader.profile(in: $0) }
        self.profile = profile
        if case .success(let bytes) = profile, bytes == nil { return image }
        var pixels = image.pixels
        let format = pixels.format
        let color = pixels.withUnsafeMutableBytes {
            PNGColorReader.manage($0, format: format, profile: profile, options: options)
        }
        return image.with(frames: [ImageFrame(pixels: pixels)], iccProfile: color.iccProfile,
                          colorProfileIssue: color.issue)
    }

    /// The canvas after `passes` Adam7 passes, each pixel taking the value of the known pixel whose block
    /// it lies in.
    private func blockFilled(_ canvas: UnsafeMutableRawBufferPointer, header: PNGHeader, passes: Int) -> PixelBuffer {
        // The grid of known pixels after passes 1…6 (after pass 7 every pixel is known).
        let blocks = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)]
        let (blockWidth, blockHeight) = blocks[min(max(passes, 1), 7) - 1]
        let bytesPerPixel = format.bytesPerPixel, rowBytes = header.width * bytesPerPixel
        return PixelBuffer(width: header.width, height: header.height, format: format) { out in
            for y in 0..<header.height {
                let sourceRow = (y - y % blockHeight) * rowBytes, row = y * rowBytes
                for x in 0..<header.width {
                    let from = sourceRow + (x - x % blockWidth) * bytesPerPixel
                    for c in 0..<bytesPerPixel { out[row + x * bytesPerPixel + c] = canvas[from + c] }
                }
            }
        }
    }
}
