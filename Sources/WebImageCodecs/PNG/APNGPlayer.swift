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

    /// Starts over from the first frame on a transparent canvas.
    mutating func rewind() {
        self = APNGPlayer(structure: structure)
    }
}
