import WebImageCore

/// The logical screen GIF frames are painted onto, remembering what the last frame's disposal asks for.
///
/// Frames are clipped to the screen (a frame partly or wholly outside it never writes out of bounds).
/// ``pixels`` shares storage with the canvas, so emitting a frame costs one copy, made when the next frame
/// is drawn.
struct GIFCanvas {
    let size: PixelSize
    private var bytes: [UInt8]
    /// The area the previous frame covered (clipped) and what to do with it before the next frame.
    private var pendingDisposal: (area: ClipArea, disposal: GIFDisposal)?
    /// The canvas before the previous frame, kept when that frame disposes to `previous`.
    private var savedBeforeFrame: [UInt8]?

    init(size: PixelSize) {
        self.size = size
        bytes = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    /// A canvas painting into `raster` (8-bit, all zero), whose storage it takes over.
    init(transparent raster: consuming PixelBuffer) {
        size = raster.size
        bytes = raster.bytes
    }

    /// The canvas as it is now, as 8-bit RGBA.
    var pixels: PixelBuffer { PixelBuffer(width: size.width, height: size.height, format: .rgba8, bytes: bytes) }

    /// Applies the previous frame's disposal, then paints the first `fileRows` rows (file order) of a frame
    /// whose de-interlaced palette indices are `indices`.
    mutating func draw(_ frame: GIFFrameHeader, indices: UnsafeBufferPointer<UInt8>, fileRows: Int) {
        applyPendingDisposal()
        savedBeforeFrame = frame.disposal == .previous ? bytes : nil
        let area = ClipArea(frame: frame, screen: size)
        pendingDisposal = (area, frame.disposal)
        guard !area.isEmpty, indices.count >= frame.width * frame.height, let source = indices.baseAddress else { return }
        let rowOrder = GIFInterlace(height: frame.height, isInterlaced: frame.isInterlaced)
        let screenWidth = size.width, count = area.maxX - area.minX
        bytes.withUnsafeMutableBytes { raw in
            raw.withMemoryRebound(to: UInt32.self) { canvas in
                frame.palette.words.withUnsafeBufferPointer { palette in
                    guard let canvasBase = canvas.baseAddress, let colors = palette.baseAddress else { return }
                    for fileRow in 0..<min(fileRows, frame.height) {
                        let row = rowOrder.displayRow(fileRow), y = frame.top + row
                        guard y >= area.minY, y < area.maxY else { continue }
                        let from = source + row * frame.width + (area.minX - frame.left)
                        let to = canvasBase + y * screenWidth + area.minX
                        if let transparent = frame.transparentIndex {
                            for i in 0..<count where from[i] != transparent { to[i] = colors[Int(from[i])] }
                        } else {
                            for i in 0..<count { to[i] = colors[Int(from[i])] }
                        }
                    }
                }
            }
        }
    }

    private mutating func applyPendingDisposal() {
        guard let (area, disposal) = pendingDisposal, !area.isEmpty else { return }
        switch disposal {
        case .none:
            break
        case .background:
            let screenWidth = size.width
            bytes.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                for y in area.minY..<area.maxY {
                    (base + (y * screenWidth + area.minX) * 4)
                        .initializeMemory(as: UInt8.self, repeating: 0, count: (area.maxX - area.minX) * 4)
                }
            }
        case .previous:
            if let savedBeforeFrame { bytes = savedBeforeFrame }
        }
    }
}

/// A frame's rectangle intersected with the screen (empty when it lies wholly outside).
struct ClipArea {
    let minX, minY, maxX, maxY: Int

    init(frame: GIFFrameHeader, screen: PixelSize) {
        minX = min(max(0, frame.left), screen.width)
        minY = min(max(0, frame.top), screen.height)
        maxX = max(minX, min(screen.width, frame.left + frame.width))
        maxY = max(minY, min(screen.height, frame.top + frame.height))
    }

    var isEmpty: Bool { minX >= maxX || minY >= maxY }

    /// Whether it covers the whole screen.
    func covers(_ screen: PixelSize) -> Bool {
        minX == 0 && minY == 0 && maxX == screen.width && maxY == screen.height
    }
}
