import CGIF
import WebImageCore

/// Walks a GIF's records with giflib: the screen, then one image header at a time, its pixels on request.
///
/// Extensions between images are consumed here: a graphics control block applies to the next image, a
/// NETSCAPE2.0 (or ANIMEXTS1.0) block gives the loop count. Open it with ``read(_:_:)``, which always closes
/// the giflib handle. Failures are ``WebImageError``: `.truncated` when the bytes ran out, else `.corrupt`.
final class GIFReader {
    private let handle: UnsafeMutablePointer<GifFileType>
    private let source: GIFByteSource
    private var pendingControl: GraphicsControlBlock?
    /// The global colour table, built once for all frames that use it.
    private lazy var globalPalette: GIFPalette = handle.pointee.SColorMap.map { GIFPalette(colorMap: $0) } ?? .black

    /// The logical screen every frame is composited onto.
    let screen: PixelSize
    /// The NETSCAPE2.0 loop count seen so far (nil when the file has none).
    private(set) var loopCount: Int?
    /// Rows of the current image decoded so far, in file order (interlaced passes are not de-interlaced here).
    private(set) var rowsRead = 0
    /// The cancellation scope's token, polled once a row (giflib decodes a row per call).
    private let cancellation = WorkCancellation.current

    private init(handle: UnsafeMutablePointer<GifFileType>, source: GIFByteSource) {
        self.handle = handle
        self.source = source
        screen = PixelSize(width: Int(handle.pointee.SWidth), height: Int(handle.pointee.SHeight))
    }

    /// Opens giflib over `bytes` (the screen descriptor is read at once), runs `body`, and closes the handle.
    static func read<R>(_ bytes: UnsafeRawBufferPointer, _ body: (GIFReader) throws -> R) throws -> R {
        let source = GIFByteSource(bytes: bytes)
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), GIFByteSource.readCallback, &error)
        guard let handle = opened else {
            throw source.hitEnd ? WebImageError.badImageData(.truncated) : failure(code: error)
        }
        defer { DGifCloseFile(handle, nil) }
        return try withExtendedLifetime(source) { try body(GIFReader(handle: handle, source: source)) }
    }

    /// Offset of the next byte giflib will read: after a frame's pixels, where the following records start.
    var position: Int { source.position }

    /// Moves to a record boundary found by an earlier walk over the same bytes (a ``GIFFrameHeader/recordOffset``
    /// or a ``position`` after a frame).
    func seek(toRecordAt offset: Int) {
        source.position = offset
        pendingControl = nil
    }

    /// Reads records up to the next image and returns its header, or nil at the trailer.
    func nextFrame() throws -> GIFFrameHeader? {
        while true {
            let offset = source.position
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(handle, &type) == GIF_OK else { throw currentFailure() }
            switch type {
            case IMAGE_DESC_RECORD_TYPE:
                return try readImageDescriptor(recordOffset: offset)
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                throw WebImageError.badImageData(.corrupt("unknown GIF record type"))
            }
        }
    }

    /// Decodes the current image's palette indices, de-interlaced, into `indices` (`width × height` bytes).
    ///
    /// On failure the rows decoded before it stay in place and ``rowsRead`` counts them.
    func readPixels(of header: GIFFrameHeader, into indices: UnsafeMutableBufferPointer<UInt8>) throws {
        rowsRead = 0
        guard header.width > 0, header.height > 0, let base = indices.baseAddress,
              indices.count >= header.width * header.height else { return try skipPixels() }
        let rowOrder = GIFInterlace(height: header.height, isInterlaced: header.isInterlaced)
        for fileRow in 0..<header.height {
            let line = base + rowOrder.displayRow(fileRow) * header.width
            try cancellation?.check()
            guard DGifGetLine(handle, line, Int32(header.width)) == GIF_OK else { throw currentFailure() }
            rowsRead = fileRow + 1
        }
    }

    /// Decodes the current image's next row in file order (the interlaced pass order) into `line`, which
    /// holds `width` palette indices.
    func readLine(into line: UnsafeMutableBufferPointer<UInt8>, width: Int) throws {
        guard let base = line.baseAddress, line.count >= width else { return }
        try cancellation?.check()
        guard DGifGetLine(handle, base, Int32(width)) == GIF_OK else { throw currentFailure() }
    }

    /// Passes over the current image's compressed data without decoding it.
    func skipPixels() throws {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(handle, &codeSize, &block) == GIF_OK else { throw currentFailure() }
        while block != nil {
            guard DGifGetCodeNext(handle, &block) == GIF_OK else { throw currentFailure() }
        }
    }

    /// Calls `body` with each image header until the trailer or until `body` returns false.
    ///
    /// Once a frame has been handled, a truncated or corrupt record ends the walk instead of failing it:
    /// like browsers, keep the frames that arrived. A file with no image at all is corrupt.
    func forEachFrame(_ body: (GIFFrameHeader) throws -> Bool) throws {
        var handled = 0
        do {
            while let header = try nextFrame() {
                guard try body(header) else { return }
                handled += 1
            }
        } catch let error as WebImageError where handled > 0 && error.endsFrameWalk {
            return
        }
        if handled == 0 { throw WebImageError.badImageData(.corrupt("the GIF contains no image")) }
    }

    private func readImageDescriptor(recordOffset: Int) throws -> GIFFrameHeader {
        guard DGifGetImageDesc(handle) == GIF_OK else { throw currentFailure() }
        let image = handle.pointee.Image
        let control = pendingControl
        pendingControl = nil
        let palette = image.ColorMap.map { GIFPalette(colorMap: $0) } ?? globalPalette
        let transparent = control.map { Int($0.TransparentColor) } ?? Int(NO_TRANSPARENT_COLOR)
        return GIFFrameHeader(
            left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
            isInterlaced: image.Interlace, palette: palette,
            transparentIndex: (0...255).contains(transparent) ? UInt8(transparent) : nil,
            disposal: GIFDisposal(code: Int(control?.DisposalMode ?? 0)),
            delayCentiseconds: Int(control?.DelayTime ?? 0), recordOffset: recordOffset)
    }

    private func readExtension() throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(handle, &code, &block) == GIF_OK else { throw currentFailure() }
        var isFirstBlock = true, isLoopApplication = false
        while let data = block {
            let payload = UnsafeBufferPointer(start: data + 1, count: Int(data[0]))
            if code == GRAPHICS_EXT_FUNC_CODE, isFirstBlock {
                var control = GraphicsControlBlock()
                if DGifExtensionToGCB(payload.count, payload.baseAddress, &control) == GIF_OK { pendingControl = control }
            } else if code == APPLICATION_EXT_FUNC_CODE {
                if isFirstBlock {
                    isLoopApplication = payload.elementsEqual("NETSCAPE2.0".utf8) || payload.elementsEqual("ANIMEXTS1.0".utf8)
                } else if isLoopApplication, payload.count >= 3, payload[0] == 1 {
                    loopCount = Int(payload[1]) | Int(payload[2]) << 8
                }
            }
            isFirstBlock = false
            guard DGifGetExtensionNext(handle, &block) == GIF_OK else { throw currentFailure() }
        }
    }

    private func currentFailure() -> WebImageError {
        source.hitEnd ? .badImageData(.truncated) : GIFReader.failure(code: handle.pointee.Error)
    }

    private static func failure(code: Int32) -> WebImageError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .badImageData(.corrupt("giflib: \(message)"))
    }
}

extension WebImageError {
    /// Whether this failure (truncated or corrupt bytes) may end a frame walk that already has frames.
    var endsFrameWalk: Bool {
        guard case .badImageData(let reason) = self else { return false }
        switch reason {
        case .truncated, .corrupt: return true
        default: return false
        }
    }
}
