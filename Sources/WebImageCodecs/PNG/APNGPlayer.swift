import WebImageCore

/// Decodes and composites an APNG's frames in order, keeping the canvas between frames so each frame costs
/// one frame decode plus one blend.
struct APNGPlayer: Sendable {
    let structure: APNGStructure
    private var compositor: APNGCompositor
    /// The index of the frame ``renderNext(in:)`` draws.
    private(set) var nextIndex = 0

    init(structure: APNGStructure) {
        self.structure = structure
        compositor = APNGCompositor(size: structure.header.size, format: structure.pixelFormat)
    }

    /// Decodes the next frame from the file's `bytes` and returns the composited canvas.
    mutating func renderNext(in bytes: UnsafeRawBufferPointer) throws -> PixelBuffer {
        let frame = structure.frames[nextIndex]
        let decoded = try APNGFrameDecoder.decode(frame, of: structure, in: bytes)
        guard decoded.pixels.format == compositor.canvas.format else {
            throw WebImageError.badImageData(.corrupt("APNG frame decoded to an unexpected pixel format"))
        }
        nextIndex += 1
        return compositor.render(decoded.pixels, control: frame.control)
    }

    /// Positions the player so that rendering up to frame `index` decodes as few frames as possible: it starts
    /// over from the nearest frame at or before `index` that paints the whole canvas by itself, when that is
    /// needed (going back) or saves work (skipping ahead).
    mutating func prepare(toRender index: Int) {
        var start = index
        while start > 0 && !isSelfContained(start) { start -= 1 }
        if index < nextIndex || start > nextIndex {
            self = APNGPlayer(structure: structure)
            nextIndex = start
        }
    }

    /// Whether frame `index` can be drawn without knowing the canvas before it: it replaces the whole canvas
    /// and is not restored away afterwards (dispose previous would need that canvas for the next frame).
    private func isSelfContained(_ index: Int) -> Bool {
        let control = structure.frames[index].control
        return control.blend == .source && control.dispose != .previous && control.covers(structure.header.size)
    }
}
